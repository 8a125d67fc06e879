/**
 * @module Hono middleware that loads the session named by the cookie into `c.get('auth')`, and one
 * that answers 401 `AUTH_REQUIRED` when there is none.
 */
import { createMiddleware } from 'hono/factory';
import { readSessionCookie } from '../sessions/cookie.js';
import type { WebAuth } from '../web-auth.js';
import { type AuthErrorWriter, authErrorStatus, type WebAuthVariables } from './types.js';

export interface LoadSessionOptions {
  auth: Pick<WebAuth, 'sessions'>;
  /** e.g. `firewarden_session`, `workspaced_session`. */
  cookieName: string;
}

/** Sets `c.get('auth')` to the live session of the cookie, or null. Never answers by itself. */
export function loadSession(options: LoadSessionOptions) {
  return createMiddleware<{ Variables: WebAuthVariables }>(async (c, next) => {
    const token = readSessionCookie(c.req.header('cookie'), options.cookieName);
    const valid = token === undefined ? undefined : await options.auth.sessions.validate(token);
    c.set('auth', valid && token ? { ...valid, token } : null);
    await next();
  });
}

/** 401 `AUTH_REQUIRED` unless `loadSession` found a session. */
export function requireSession(options: { onError: AuthErrorWriter }) {
  return createMiddleware<{ Variables: WebAuthVariables }>(async (c, next) => {
    if (!c.get('auth')) {
      return options.onError(c, authErrorStatus.AUTH_REQUIRED, 'AUTH_REQUIRED', 'sign in first');
    }
    await next();
  });
}
