/**
 * @module The daemon's one error shape: `{"error": {"code", "message", ...details}}` with a
 * stable upper-case code a client can branch on and a sentence a person can read.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504 | 507;

/** Thrown anywhere below the routes; the app turns it into the JSON error body. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    /** Extra fields merged into the error object (for example the current task on a 409). */
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
