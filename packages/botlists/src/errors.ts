/**
 * @module BotlistsError: the one error type the SDK throws for list and HTTP failures.
 */

/** An error tied to one list (or `botblock`), with the HTTP status and any Retry-After seconds. */
export class BotlistsError extends Error {
  readonly listId: string | null;
  readonly status: number | null;
  readonly retryAfter: number | null;
  readonly body: string | null;

  constructor(
    message: string,
    details: {
      listId?: string | null;
      status?: number | null;
      retryAfter?: number | null;
      body?: string | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'BotlistsError';
    this.listId = details.listId ?? null;
    this.status = details.status ?? null;
    this.retryAfter = details.retryAfter ?? null;
    this.body = details.body ?? null;
  }
}
