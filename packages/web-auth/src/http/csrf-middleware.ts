/**
 * @module Hono middleware requiring the session's CSRF token in a custom header on every request
 * that may change state (any method but GET, HEAD, OPTIONS) made under a session.
 *
 * Synchronizer-token model: the token lives server-side (derived from the session), is handed to
 * the page in a JSON body, and must come back in a header a cross-site form cannot set.
 */
import { createMiddleware } from 'hono/factory';
import { constantTimeEqual } from '../sessions/tokens.js';
import { type AuthErrorWriter, authErrorStatus, isSafeMethod, type WebAuthVariables } from './types.js';

export interface RequireCsrfOptions {
  /** e.g. `X-Firewarden-CSRF`, `X-Workspaced-CSRF`. */
  headerName: string;
  onError: AuthErrorWriter;
}

const maxCsrfHeaderLength = 256;

/** 403 `AUTH_CSRF_INVALID` when a mutating request under a session lacks the right token. */
export function requireCsrf(options: RequireCsrfOptions) {
  return createMiddleware<{ Variables: WebAuthVariables }>(async (c, next) => {
    const auth = c.get('auth');
    if (auth && !isSafeMethod(c.req.method)) {
      const given = c.req.header(options.headerName);
      if (!given || given.length > maxCsrfHeaderLength || !constantTimeEqual(given, auth.csrf)) {
        return options.onError(
          c,
          authErrorStatus.AUTH_CSRF_INVALID,
          'AUTH_CSRF_INVALID',
          `missing or wrong ${options.headerName} header`,
        );
      }
    }
    await next();
  });
}
