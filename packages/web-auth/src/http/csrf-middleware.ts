/**
 * @module Hono middleware requiring the session's CSRF token in a custom header on every request
 * that may change state (any method but GET, HEAD, OPTIONS) made under a session.
 *
 * Synchronizer-token model: the token lives server-side (derived from the session), is handed to
 * the page in a JSON body, and must come back in a header a cross-site form cannot set.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { constantTimeEqual } from '../sessions/tokens.js';
import { requestHeader } from './request-headers.js';
import {
  type AuthErrorWriter,
  type AuthState,
  authErrorStatus,
  isSafeMethod,
  type WebAuthEnv,
} from './types.js';

export interface RequireCsrfOptions {
  /** e.g. `X-Firewarden-CSRF`, `X-Workspaced-CSRF`. */
  headerName: string;
  onError: AuthErrorWriter;
}

const maxCsrfHeaderLength = 256;

/** 403 `AUTH_CSRF_INVALID` when a mutating request under a session lacks the right token. */
export function requireCsrf<E extends WebAuthEnv = WebAuthEnv>(
  options: RequireCsrfOptions,
): MiddlewareHandler<E> {
  return createMiddleware<E>(async (c, next) => {
    const auth = c.get('auth');
    // Fail closed on a wiring mistake: without loadSession first, every request would pass.
    if (auth === undefined) throw new Error('requireCsrf must come after loadSession');
    if (!hasValidCsrf(c, auth, options.headerName)) return refuseCsrf(c, options);
    await next();
  });
}

/** False only for a mutating request under a session without the session's token in `headerName`. */
export function hasValidCsrf(c: Context, auth: AuthState | null, headerName: string): boolean {
  if (!auth || isSafeMethod(c.req.method)) return true;
  const given = requestHeader(c, headerName.toLowerCase());
  return (
    given !== undefined &&
    given.length > 0 &&
    given.length <= maxCsrfHeaderLength &&
    constantTimeEqual(given, auth.csrf)
  );
}

export function refuseCsrf(c: Context, options: RequireCsrfOptions): Response | Promise<Response> {
  return options.onError(
    c,
    authErrorStatus.AUTH_CSRF_INVALID,
    'AUTH_CSRF_INVALID',
    `missing or wrong ${options.headerName} header`,
  );
}
