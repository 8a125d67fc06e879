/**
 * @module The error type endpoints and fetchers throw; the pipeline turns it into an SVG
 * error card with the right status and headers.
 */

/** Statuses a card may fail with (spec section 7, plus 502 for a failing upstream). */
export type CardErrorStatus = 400 | 404 | 429 | 500 | 502 | 503 | 504;

export interface CardErrorOptions {
  /** Sent as `Retry-After` (seconds), e.g. until an upstream rate limit resets. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * A failure a reader should see on the card.
 *
 * @example throw new CardError(404, 'GitHub user "nobody" not found');
 * @example throw new CardError(429, 'GitHub rate limit reached', { retryAfterSeconds: 600 });
 */
export class CardError extends Error {
  readonly status: CardErrorStatus;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: CardErrorStatus, message: string, options: CardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CardError';
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
