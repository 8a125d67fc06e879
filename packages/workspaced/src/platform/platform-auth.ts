/**
 * @module Authentication besides the session cookie. `Authorization: Bearer wsd_...` is checked
 * against the stored token hashes and makes the token's user the caller, with the token's scopes
 * (token-scopes.ts) checked on every API route; such a request needs no CSRF header (a browser
 * never attaches it by itself). A request carrying both a session cookie and an Authorization
 * header is refused: one request, one identity. Without either, the cookie session applies, except
 * on the MCP endpoint: it answers 401 `TOKEN_REQUIRED` with a Bearer challenge (RFC 6750), which
 * is what an MCP client expects to read.
 */
import type { WebAuth } from '@suite/web-auth';
import type { MiddlewareHandler } from 'hono';
import { toPrincipal } from '../auth/principal.js';
import { sessionCookieName } from '../auth/request-security.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError } from '../http/api-error.js';
import { apiPrefix } from '../http/api-prefix.js';
import type { AppEnv } from '../http/app-env.js';
import { internalCallerOf } from './caller.js';
import { isTokenOnly, scopeAllows, type TokenScope } from './token-scopes.js';
import { touchToken, verifyToken } from './token-store.js';

interface PlatformAuthOptions {
  db: WorkspacedDb;
  auth: WebAuth;
  /** The cookie session loader and guard (request-security.ts). */
  loadSession: MiddlewareHandler;
  requireSession: MiddlewareHandler;
}

const tokenPrefix = 'Bearer wsd_';
const bearerPattern = /^Bearer (wsd_[A-Za-z0-9_]{1,200})$/;

const bearerChallenge = 'Bearer realm="workspaced"';

const invalidToken = () =>
  new ApiError(
    'AUTH_INVALID_TOKEN',
    'the bearer token is unknown, revoked or expired',
    {},
    { 'www-authenticate': `${bearerChallenge}, error="invalid_token"` },
  );

const tokenRequired = () =>
  new ApiError(
    'TOKEN_REQUIRED',
    'the MCP endpoint takes a platform token with the mcp scope (Authorization: Bearer wsd_...)',
    {},
    { 'www-authenticate': bearerChallenge },
  );

function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${sessionCookieName}=`));
}

export function platformAuth(options: PlatformAuthOptions) {
  const { db, auth } = options;

  /** In place of `loadSession`: sets `auth` (null without a cookie session) and `caller`. */
  const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const internal = internalCallerOf(c);
    if (internal) {
      c.set('auth', null);
      c.set('caller', internal);
      return next();
    }
    const authorization = c.req.header('authorization');
    // Other bearer credentials (a paired node's on `GET /agents`) belong to their own routes.
    if (!authorization?.startsWith(tokenPrefix)) return options.loadSession(c, next);
    if (hasSessionCookie(c.req.header('cookie')))
      throw new ApiError('AUTH_AMBIGUOUS', 'send a session cookie or a bearer token, not both');
    const secret = bearerPattern.exec(authorization)?.[1];
    const row = secret === undefined ? undefined : await verifyToken(db, secret);
    const user = row ? await auth.users.getById(row.user_id) : undefined;
    if (!row || !user || user.disabled) throw invalidToken();
    await touchToken(db, row);
    const principal = toPrincipal(user);
    c.set('auth', null);
    c.set('caller', {
      principal,
      token: { id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as TokenScope[] },
      actor: `${user.username} (token ${row.id})`,
    });
    return next();
  };

  /** In place of `requireSession` on the API: a caller, within its token's scopes, or a session. */
  const requireCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
    const caller = c.get('caller');
    const path = c.req.path.slice(apiPrefix.length);
    if (isTokenOnly(path) && !caller?.token) throw tokenRequired();
    if (!caller)
      return options.requireSession(c, async () => {
        c.set('principal', toPrincipal(c.var.auth!.user));
        await next();
      });
    if (caller.token && !scopeAllows(caller.token.scopes, c.req.method, path))
      throw new ApiError('TOKEN_SCOPE', 'this token may not use this route', {
        scopes: caller.token.scopes,
      });
    c.set('principal', caller.principal);
    await next();
  };

  return { authenticate, requireCaller };
}
