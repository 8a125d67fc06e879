/**
 * @module What the Hono middleware share: the context variable they fill, the stable error codes
 * with their HTTP status, and the product-supplied writer that turns an error into the product's
 * own JSON envelope.
 */
import type { Context } from 'hono';
import type { Session } from '../sessions/session-store.js';
import type { User } from '../users/user-store.js';

/** `c.get('auth')` after `loadSession`: the signed-in user, or null. */
export interface AuthState {
  user: User;
  session: Session;
  /** The session's CSRF token (return it from `/me`). */
  csrf: string;
  /** The cookie token, for logout. */
  token: string;
}

export type WebAuthVariables = { auth: AuthState | null };

/** Any Hono environment whose variables include ours: the middleware factories fit the product's own Env. */
export type WebAuthEnv = { Variables: WebAuthVariables };

/** Stable error codes and the status each is answered with. */
export const authErrorStatus = {
  AUTH_REQUIRED: 401,
  AUTH_INVALID_CREDENTIALS: 401,
  AUTH_ACCOUNT_DISABLED: 403,
  AUTH_CSRF_INVALID: 403,
  AUTH_RATE_LIMITED: 429,
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
} as const;

export type AuthErrorCode = keyof typeof authErrorStatus;
export type AuthErrorStatus = (typeof authErrorStatus)[AuthErrorCode];

/** Writes an error in the product's envelope, e.g. `(c, status, code, message) => c.json({ error: { code, message } }, status)`. */
export type AuthErrorWriter = (
  c: Context,
  status: AuthErrorStatus,
  code: AuthErrorCode,
  message: string,
) => Response | Promise<Response>;

/** Methods that must not change state, so need neither a CSRF token nor an Origin check. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
