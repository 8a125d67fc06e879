/**
 * @module The VAPID `sub` claim (RFC 8292 section 2.1): how a push service's operator reaches
 * whoever runs this daemon when its pushes misbehave, a `mailto:` address or an `https:` URL
 * (`--push-subject`). The default names no real mailbox; Apple's push service refuses an
 * `https://localhost` subject, so a daemon pushing to Safari should set a real one.
 */
export const defaultPushSubject = 'mailto:workspaced@localhost';

export class PushSubjectError extends Error {
  override name = 'PushSubjectError';
}

export function checkPushSubject(subject: string): string {
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    throw new PushSubjectError(`the push subject ${JSON.stringify(subject)} is not a URL`);
  }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:')
    throw new PushSubjectError('the push subject must be a mailto: address or an https: URL');
  return subject;
}
