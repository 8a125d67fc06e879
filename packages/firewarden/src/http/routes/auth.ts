/**
 * @module `POST /api/v1/auth/login`, `POST /api/v1/auth/logout`, `GET /api/v1/auth/me`.
 * Login sets the `firewarden_session` cookie (HttpOnly, SameSite=Strict, Secure under TLS) and
 * returns the CSRF token; sign-in and sign-out are audited by `@suite/web-auth`.
 */
import { clearSessionCookie, serializeSessionCookie } from '@suite/web-auth';
import { z } from 'zod';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import { ok, okJson } from '../envelope.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';
import { sessionView, sessionViewJson } from '../views.js';

export const sessionCookieName = 'firewarden_session';

/** Lengths are bounded here; what a valid username or password is, is web-auth's business. */
const loginBody = z.strictObject({
  username: z.string().max(256),
  password: z.string().max(4_096),
});

export function registerAuthRoutes(
  defineRoute: DefineRoute,
  services: Services,
  options: { secure: boolean },
): void {
  const idleSeconds = () => services.settings.current().security.session_idle_timeout_minutes * 60;

  defineRoute('/api/v1/auth/login', {
    POST: [
      async (c) => {
        const body = await readJsonBody(c, loginBody, services.config.server.max_body_bytes);
        const result = await services.auth().login({
          username: body.username,
          password: body.password,
          client: c.get('clientAddress'),
          userAgent: c.req.header('user-agent')?.slice(0, 256) ?? null,
          requestId: c.get('requestId'),
        });
        c.set('audited', true);
        switch (result.kind) {
          case 'ok':
            c.header(
              'Set-Cookie',
              serializeSessionCookie(sessionCookieName, result.token, { secure: options.secure }),
            );
            return ok(c, sessionView(result, idleSeconds()));
          case 'rate_limited':
            throw new ApiError(
              'AUTH_RATE_LIMITED',
              'too many sign-in attempts; try again later',
              { retry_after_seconds: result.retryAfterSeconds },
              { 'Retry-After': String(result.retryAfterSeconds) },
            );
          case 'disabled':
            throw new ApiError('AUTH_ACCOUNT_DISABLED', 'this account is disabled');
          default:
            throw new ApiError('AUTH_INVALID_CREDENTIALS', 'wrong username or password');
        }
      },
    ],
  });

  defineRoute('/api/v1/auth/logout', {
    POST: [
      async (c) => {
        const auth = c.get('auth');
        const ended = await services.auth().logout({
          token: auth?.token,
          actor: auth?.user.username ?? null,
          client: c.get('clientAddress'),
          requestId: c.get('requestId'),
        });
        c.set('audited', true);
        c.header('Set-Cookie', clearSessionCookie(sessionCookieName, { secure: options.secure }));
        return ok(c, { logged_out: ended });
      },
    ],
  });

  defineRoute('/api/v1/auth/me', {
    GET: [
      async (c) => {
        const auth = c.get('auth');
        return auth ? okJson(c, sessionViewJson(auth, idleSeconds())) : ok(c, { authenticated: false });
      },
    ],
  });
}
