/**
 * @module Hono middleware that loads the session named by the cookie into `c.get('auth')`, and one
 * that answers 401 `AUTH_REQUIRED` when there is none.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { readSessionCookie } from '../sessions/cookie.js';
import type { WebAuth } from '../web-auth.js';
import { requestHeader } from './request-headers.js';
import { type AuthErrorWriter, type AuthState, authErrorStatus, type WebAuthEnv } from './types.js';

export interface LoadSessionOptions {
  auth: Pick<WebAuth, 'sessions'>;
  /** e.g. `firewarden_session`, `workspaced_session`. */
  cookieName: string;
}

/** Sets `c.get('auth')` to the live session of the cookie, or null. Never answers by itself. */
export function loadSession<E extends WebAuthEnv = WebAuthEnv>(
  options: LoadSessionOptions,
): MiddlewareHandler<E> {
  return createMiddleware<E>(async (c, next) => {
    c.set('auth', await sessionOf(c, options));
    await next();
  });
}

/** The live session of the request's cookie, or null. */
export async function sessionOf(c: Context, options: LoadSessionOptions): Promise<AuthState | null> {
  const token = readSessionCookie(requestHeader(c, 'cookie'), options.cookieName);
  const valid = token === undefined ? undefined : await options.auth.sessions.validate(token);
  return valid && token ? { ...valid, token } : null;
}

/** 401 `AUTH_REQUIRED` unless `loadSession` found a session. */
export function requireSession<E extends WebAuthEnv = WebAuthEnv>(options: {
  onError: AuthErrorWriter;
}): MiddlewareHandler<E> {
  return createMiddleware<E>(async (c, next) => {
    if (!c.get('auth')) {
      return options.onError(c, authErrorStatus.AUTH_REQUIRED, 'AUTH_REQUIRED', 'sign in first');
    }
    await next();
  });
}
