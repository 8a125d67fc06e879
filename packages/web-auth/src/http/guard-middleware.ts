/**
 * @module `originCheck`, `loadSession` and `requireCsrf` as one Hono middleware: the same checks in
 * the same order, in one function. Why: each middleware is a frame, a closure and a promise of
 * Hono's chain on every request; on a small authenticated answer the three cost more than the
 * checks themselves.
 */
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { hasValidCsrf, type RequireCsrfOptions, refuseCsrf } from './csrf-middleware.js';
import { type OriginCheckOptions, refuseOrigin } from './origin-middleware.js';
import { isAllowedOrigin } from './origin-rules.js';
import { headerGetter } from './request-headers.js';
import { type LoadSessionOptions, sessionOf } from './session-middleware.js';
import type { WebAuthEnv } from './types.js';

export type SessionGuardOptions = OriginCheckOptions &
  LoadSessionOptions & {
    /** The CSRF header, e.g. `X-Firewarden-CSRF`. */
    csrfHeaderName: RequireCsrfOptions['headerName'];
  };

/** 403 `ORIGIN_NOT_ALLOWED`, then `c.get('auth')` as `loadSession` sets it, then 403 `AUTH_CSRF_INVALID`. */
export function sessionGuard<E extends WebAuthEnv = WebAuthEnv>(
  options: SessionGuardOptions,
): MiddlewareHandler<E> {
  const csrf: RequireCsrfOptions = { headerName: options.csrfHeaderName, onError: options.onError };
  return createMiddleware<E>(async (c, next) => {
    if (!isAllowedOrigin(c.req.method, headerGetter(c), options)) return refuseOrigin(c, options);
    const auth = await sessionOf(c, options);
    c.set('auth', auth);
    if (!hasValidCsrf(c, auth, csrf.headerName)) return refuseCsrf(c, csrf);
    await next();
  });
}
