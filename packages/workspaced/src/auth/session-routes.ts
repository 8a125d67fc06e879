/**
 * @module Signing in: `GET/POST /setup` (the first owner, once, with the one-time setup token
 * unless `--setup-open`), `POST /login`, `POST /logout`,
 * `GET /me`. Setup, login and `/me` answer `{user, csrf, session, permissions}`; the `csrf` value
 * goes back in `X-Workspaced-CSRF` on every mutation. `permissions` are the names the user's
 * global role grants (the UI offers only what they allow; the daemon decides anyway). In a
 * project a membership may grant less: `GET /projects` answers the role there.
 */
import {
  clearSessionCookie,
  serializeSessionCookie,
  type User,
  userView,
  type WebAuth,
} from '@suite/web-auth';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { type Permission, permissions, roleHas } from '../access/permissions.js';
import { isRole } from '../access/roles.js';
import { ApiError, apiErrorResponse } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { clientAddress } from '../http/client-address.js';
import { readJson } from '../http/request-input.js';
import type { SocketRegistry } from '../realtime/socket-registry.js';
import { sessionCookieName } from './request-security.js';
import type { SetupGate } from './setup-token.js';

const username = z.string().min(1).max(64);
/** web-auth enforces the real policy (length 12 to 1,024 bytes); this only bounds the input. */
const password = z.string().min(1).max(4_096);
const setupSchema = z.object({
  username,
  password,
  display_name: z.string().trim().min(1).max(200).optional(),
  /** The one-time token the daemon printed (auth/setup-token.ts); ignored with `--setup-open`. */
  setup_token: z.string().max(200).optional(),
});
const loginSchema = z.object({ username, password });

interface SessionRouteOptions {
  auth: WebAuth;
  /** Adds `Secure` to the cookie (TLS, or `--secure-cookies` behind an HTTPS proxy). */
  secureCookies: boolean;
  /** Logout closes the session's open sockets (4401). */
  sockets: SocketRegistry;
}

interface SignedIn {
  user: User;
  token: string;
  csrf: string;
  expiresAt: number;
}

/** The permissions of a user's global role, in the table's order (none for an unknown role). */
function globalPermissions(role: string): Permission[] {
  return isRole(role) ? permissions.filter((permission) => roleHas(role, permission)) : [];
}

export function registerSessionRoutes(
  app: Hono<AppEnv>,
  options: SessionRouteOptions & { setup: SetupGate },
) {
  const { auth } = options;

  const signedIn = (c: Context<AppEnv>, status: 200 | 201, session: SignedIn) => {
    c.header(
      'Set-Cookie',
      serializeSessionCookie(sessionCookieName, session.token, { secure: options.secureCookies }),
    );
    return c.json(
      {
        user: userView(session.user),
        csrf: session.csrf,
        session: { expires_at: new Date(session.expiresAt).toISOString() },
        permissions: globalPermissions(session.user.role),
      },
      status,
    );
  };

  app.get('/setup', async (c) =>
    c.json({
      setup_pending: (await auth.users.count()) === 0,
      setup_token_required: options.setup.tokenRequired,
    }),
  );

  app.post('/setup', async (c) => {
    const input = await readJson(c, setupSchema);
    if (!options.setup.accepts(input.setup_token)) {
      await auth.audit.append({
        actor: input.username,
        action: 'auth.setup',
        target: 'setup',
        outcome: 'denied',
        requestId: c.var.requestId,
        client: clientAddress(c),
      });
      throw new ApiError(
        'SETUP_TOKEN_INVALID',
        'setup needs the setup_token the daemon printed when it started (also in <data-dir>/setup-token)',
      );
    }
    // Of concurrent setups, in any number of processes, web-auth lets exactly one create a user.
    const user = await auth.users.createFirst({
      username: input.username,
      password: input.password,
      displayName: input.display_name ?? null,
      role: 'owner',
    });
    if (!user) throw new ApiError('SETUP_COMPLETE', 'the owner already exists; sign in');
    options.setup.close();
    const created = await auth.sessions.create(user.id, {
      client: clientAddress(c),
      userAgent: c.req.header('user-agent') ?? null,
    });
    await auth.audit.append({
      actor: user.username,
      action: 'auth.setup',
      target: `user:${user.id}`,
      outcome: 'success',
      requestId: c.var.requestId,
      client: clientAddress(c),
    });
    return signedIn(c, 201, {
      user,
      token: created.token,
      csrf: created.csrf,
      expiresAt: created.session.expiresAt,
    });
  });

  app.post('/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const result = await auth.login({
      username: input.username,
      password: input.password,
      client: clientAddress(c),
      userAgent: c.req.header('user-agent') ?? null,
      requestId: c.var.requestId,
    });
    switch (result.kind) {
      case 'ok':
        return signedIn(c, 200, {
          user: result.user,
          token: result.token,
          csrf: result.csrf,
          expiresAt: result.session.expiresAt,
        });
      case 'rate_limited':
        return apiErrorResponse(
          new ApiError(
            'AUTH_RATE_LIMITED',
            'too many sign-in attempts; wait and try again',
            { retry_after_secs: result.retryAfterSeconds },
            { 'Retry-After': String(result.retryAfterSeconds) },
          ),
        );
      case 'disabled':
        return apiErrorResponse(new ApiError('AUTH_ACCOUNT_DISABLED', 'this account is disabled'));
      default:
        return apiErrorResponse(new ApiError('AUTH_INVALID_CREDENTIALS', 'wrong username or password'));
    }
  });
}

/** Routes that need a session (registered after the session guard). */
export function registerSignedInSessionRoutes(app: Hono<AppEnv>, options: SessionRouteOptions) {
  const { auth } = options;

  app.post('/logout', async (c) => {
    await auth.logout({
      token: c.var.auth?.token,
      actor: c.var.principal.username,
      client: clientAddress(c),
      requestId: c.var.requestId,
    });
    if (c.var.auth) options.sockets.endSession(c.var.auth.session.id, 'signed out');
    c.header('Set-Cookie', clearSessionCookie(sessionCookieName, { secure: options.secureCookies }));
    return c.body(null, 204);
  });

  app.get('/me', async (c) => {
    const state = c.var.auth!;
    return c.json({
      user: userView(state.user),
      csrf: state.csrf,
      session: { expires_at: new Date(state.session.expiresAt).toISOString() },
      permissions: globalPermissions(state.user.role),
    });
  });
}
