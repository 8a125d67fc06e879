/**
 * @module The error every handler throws for a client-visible failure; the envelope turns it
 * into `{ok: false, error: {code, message, details?}}` with the code's HTTP status.
 */
import { type ErrorCode, errorStatus } from './error-codes.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}
