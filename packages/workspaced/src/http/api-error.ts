/**
 * @module The daemon's one error shape: `{"error": {"code", "message", ...details}}` with a
 * stable upper-case code a client can branch on and a sentence a person can read. The status
 * comes from the code (http/error-codes.ts).
 */
import { type ErrorCode, errorStatus } from './error-codes.js';

/** Thrown anywhere below the routes; the app turns it into the JSON error body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the error object (for example the current task on a 409). */
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

/** The JSON error answer; `status` and `code` come as a pair from a table (here or @suite/web-auth's). */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: { code, message, ...details } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The answer for an `ApiError`, for the places that answer instead of throwing. */
export const apiErrorResponse = (error: ApiError): Response =>
  errorResponse(error.status, error.code, error.message, error.details, error.headers);

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);
