/**
 * @module `GET /api/v1/users` (list), `POST /api/v1/users` (create, 201), and cutting off an
 * account: `PATCH /api/v1/users/{id}` (`{role?, disabled?}`), `POST /api/v1/users/{id}/password`
 * (`{password}`), `POST /api/v1/users/{id}/sessions/revoke`: admin only. Username and password
 * rules are web-auth's (3-64 characters; passwords at least 12); the last enabled admin can be
 * neither disabled nor demoted (409 `LAST_ADMIN`).
 */
import { userView, WebAuthError } from '@suite/web-auth';
import type { Context } from 'hono';
import { z } from 'zod';
import {
  type ChangeRequester,
  changeAccount,
  endAccountSessions,
  setAccountPassword,
} from '../../auth/account-changes.js';
import { roles } from '../../auth/roles.js';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { parseOrThrow, readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';

const newUserBody = z.strictObject({
  username: z.string().max(256),
  password: z.string().max(4_096),
  role: z.enum(roles),
  display_name: z.string().max(256).nullable().optional(),
});

const accountChangeBody = z.strictObject({
  role: z.enum(roles).optional(),
  disabled: z.boolean().optional(),
});

const passwordBody = z.strictObject({ password: z.string().max(4_096) });

const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** web-auth's field errors, as the envelope's field list. */
function userFieldError(error: WebAuthError): ApiError {
  if (error.code === 'USERNAME_TAKEN') return new ApiError('CONFLICT', error.message, { field: 'username' });
  const field = error.code.startsWith('PASSWORD')
    ? 'password'
    : error.code.startsWith('USERNAME')
      ? 'username'
      : error.code === 'ROLE_INVALID'
        ? 'role'
        : 'display_name';
  return new ApiError('VALIDATION_FAILED', 'the user has invalid values', {
    errors: [{ path: field, message: error.message, code: error.code }],
  });
}

/** Rethrows the errors of a change to an existing account in the envelope's codes. */
function throwAccountChangeError(error: unknown): never {
  if (!(error instanceof WebAuthError)) throw error;
  if (error.code === 'USER_NOT_FOUND') throw new ApiError('NOT_FOUND', 'no such user');
  if (error.code === 'LAST_OF_ROLE')
    throw new ApiError(
      'LAST_ADMIN',
      'this would leave no enabled admin: enable or promote another admin first',
    );
  throw userFieldError(error);
}

/** The `{id}` of the path (Hono types a parameter as possibly missing). */
const userIdOf = (c: Context<AppEnv>) => c.req.param('id') ?? '';

function requesterOf(c: Context<AppEnv>): ChangeRequester {
  const auth = c.get('auth')!;
  c.set('audited', true);
  return {
    actor: auth.user.username,
    requestId: c.get('requestId'),
    client: c.get('clientAddress'),
    session: { id: auth.session.id, userId: auth.user.id },
  };
}

export function registerUserRoutes(defineRoute: DefineRoute, services: Services): void {
  defineRoute('/api/v1/users', {
    GET: [
      requirePermission('users.read'),
      async (c) => {
        const query = parseOrThrow(listQuery, c.req.query(), 'the query');
        const users = services.auth().users;
        const [page, total] = await Promise.all([users.list(query), users.count()]);
        return ok(c, { users: page.map(userView), total, limit: query.limit, offset: query.offset });
      },
    ],
    POST: [
      requirePermission('users.write'),
      async (c) => {
        const body = await readJsonBody(c, newUserBody, services.config.server.max_body_bytes);
        const actor = c.get('auth')!.user.username;
        const audit = (outcome: string, target: string | null, detail: Record<string, string>) =>
          services.auth().audit.append({
            actor,
            action: 'users.create',
            target,
            outcome,
            requestId: c.get('requestId'),
            client: c.get('clientAddress'),
            detail: { username: body.username.slice(0, 64), role: body.role, ...detail },
          });
        try {
          const user = await services.auth().users.create({
            username: body.username,
            password: body.password,
            role: body.role,
            displayName: body.display_name ?? null,
          });
          await audit('success', user.id, {});
          c.set('audited', true);
          return ok(c, { user: userView(user) }, 201);
        } catch (error) {
          if (!(error instanceof WebAuthError)) throw error;
          await audit('rejected', null, { code: error.code });
          c.set('audited', true);
          throw userFieldError(error);
        }
      },
    ],
  });

  defineRoute('/api/v1/users/:id', {
    PATCH: [
      requirePermission('users.write'),
      async (c) => {
        const body = await readJsonBody(c, accountChangeBody, services.config.server.max_body_bytes);
        const user = await changeAccount(services.auth(), userIdOf(c), body, requesterOf(c)).catch(
          throwAccountChangeError,
        );
        return ok(c, { user: userView(user) });
      },
    ],
  });

  defineRoute('/api/v1/users/:id/password', {
    POST: [
      requirePermission('users.write'),
      async (c) => {
        const body = await readJsonBody(c, passwordBody, services.config.server.max_body_bytes);
        const user = await setAccountPassword(
          services.auth(),
          userIdOf(c),
          body.password,
          requesterOf(c),
        ).catch(throwAccountChangeError);
        return ok(c, { user: userView(user) });
      },
    ],
  });

  defineRoute('/api/v1/users/:id/sessions/revoke', {
    POST: [
      requirePermission('users.write'),
      async (c) => {
        const ended = await endAccountSessions(services.auth(), userIdOf(c), requesterOf(c)).catch(
          throwAccountChangeError,
        );
        return ok(c, { ended_sessions: ended });
      },
    ],
  });
}
