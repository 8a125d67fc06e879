/**
 * @module Typed failures of the GitHub data layer, each mapped to the HTTP status of its error card.
 */

/** Why GitHub data could not be produced; decides the status of the error card. */
type GitHubFailureKind = 'not-found' | 'rate-limited' | 'upstream';

const statusOfKind: Record<GitHubFailureKind, number> = {
  'not-found': 404,
  'rate-limited': 429,
  upstream: 502,
};

/** A failure the endpoints turn into an SVG error card (404, 429 with Retry-After, or 502). */
export class GitHubError extends Error {
  readonly kind: GitHubFailureKind;
  /** Seconds until a retry can succeed (429 only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: GitHubFailureKind, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'GitHubError';
    this.kind = kind;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get status(): number {
    return statusOfKind[this.kind];
  }
}

export function notFound(what: string): GitHubError {
  return new GitHubError('not-found', `${what} was not found on GitHub`);
}

export function rateLimited(retryAfterSeconds: number): GitHubError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new GitHubError('rate-limited', `GitHub rate limit reached, retry in ${seconds} s`, seconds);
}

export function upstreamDown(detail: string): GitHubError {
  return new GitHubError('upstream', `GitHub is unavailable (${detail})`);
}
