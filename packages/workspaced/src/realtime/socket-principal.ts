/**
 * @module The user behind an open socket, as of now: the socket's session cookie is validated
 * again (web-auth: not expired, not idle too long, user enabled; the check counts as use, as a
 * request would) and the user's current role read. Sockets ask on every input frame and every
 * `sub`, so nothing rests on what was true at the upgrade.
 */
import type { WebAuth } from '@suite/web-auth';
import { type Principal, toPrincipal } from '../auth/principal.js';

/** The principal now, or undefined when the session has ended (or the role is unknown). */
export type CurrentPrincipal = () => Promise<Principal | undefined>;

export function sessionPrincipal(auth: Pick<WebAuth, 'sessions'>, token: string): CurrentPrincipal {
  return async () => {
    const valid = await auth.sessions.validate(token);
    if (!valid) return undefined;
    try {
      return toPrincipal(valid.user);
    } catch {
      return undefined;
    }
  };
}
