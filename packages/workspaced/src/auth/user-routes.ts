/**
 * @module `GET /users` (users.view), `POST /users` and `PATCH /users/{id}` (users.manage): list
 * accounts, create one, change one's role, name, password or disabled flag. Nobody hands out or
 * touches a role stronger than their own, and the last enabled owner cannot be demoted or
 * disabled (the daemon would have no owner left). Disabling a user or changing their password
 * closes their open sockets (4401); a role change has each of them check its access again.
 */
import { userView, type WebAuth } from '@suite/web-auth';
import type { Hono } from 'hono';
import { z } from 'zod';
import { requirePermission } from '../access/project-access.js';
import { isRole, roleSchema, roleWithin } from '../access/roles.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import type { SocketRegistry } from '../realtime/socket-registry.js';

const createUserSchema = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(4_096),
  display_name: z.string().trim().min(1).max(200).optional(),
  role: roleSchema,
});
const updateUserSchema = z
  .object({
    role: roleSchema,
    display_name: z.string().trim().min(1).max(200).nullable(),
    password: z.string().min(1).max(4_096),
    disabled: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'send at least one field' });
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export function registerUserRoutes(app: Hono<AppEnv>, auth: WebAuth, sockets: SocketRegistry): void {
  app.get('/users', requirePermission('users.view'), async (c) => {
    const query = readQuery(c, listQuery);
    const users = await auth.users.list({ limit: query.limit, offset: query.offset });
    return c.json({ users: users.map(userView), total: await auth.users.count() });
  });

  app.post('/users', requirePermission('users.manage'), async (c) => {
    const input = await readJson(c, createUserSchema);
    if (!roleWithin(input.role, c.var.principal.role))
      throw new ApiError('ROLE_TOO_HIGH', `a ${c.var.principal.role} cannot create a ${input.role}`);
    const user = await auth.users.create({
      username: input.username,
      password: input.password,
      displayName: input.display_name ?? null,
      role: input.role,
    });
    return c.json(userView(user), 201);
  });

  registerUserUpdate(app, auth, sockets);
}

/** Enabled owners other than `exceptId` (users are few: one page of the maximum size covers them). */
async function otherEnabledOwners(auth: WebAuth, exceptId: string): Promise<number> {
  const users = await auth.users.list({ limit: 1_000 });
  return users.filter((user) => user.role === 'owner' && !user.disabled && user.id !== exceptId).length;
}

function registerUserUpdate(app: Hono<AppEnv>, auth: WebAuth, sockets: SocketRegistry): void {
  app.patch('/users/:userId', requirePermission('users.manage'), async (c) => {
    const patch = await readJson(c, updateUserSchema);
    const actor = c.var.principal;
    const user = await auth.users.getById(c.req.param('userId'));
    if (!user) throw new ApiError('USER_NOT_FOUND', 'no such user');
    if (!isRole(user.role) || !roleWithin(user.role, actor.role))
      throw new ApiError('ROLE_TOO_HIGH', `a ${actor.role} cannot change a ${user.role}`);
    if (patch.role && !roleWithin(patch.role, actor.role))
      throw new ApiError('ROLE_TOO_HIGH', `a ${actor.role} cannot grant ${patch.role}`);
    const losesOwner =
      user.role === 'owner' && ((patch.role && patch.role !== 'owner') || patch.disabled === true);
    if (losesOwner && (await otherEnabledOwners(auth, user.id)) === 0)
      throw new ApiError('LAST_OWNER', 'the last enabled owner cannot be demoted or disabled');
    let updated = user;
    if (patch.password !== undefined) updated = await auth.users.setPassword(user.id, patch.password);
    if (patch.display_name !== undefined)
      updated = await auth.users.setDisplayName(user.id, patch.display_name);
    if (patch.role !== undefined) updated = await auth.users.setRole(user.id, patch.role);
    if (patch.disabled !== undefined) updated = await auth.users.setDisabled(user.id, patch.disabled);
    // web-auth ended every session of a disabled user or a new password; their sockets go too.
    if (patch.disabled === true) sockets.endUser(user.id, 'account disabled');
    else if (patch.password !== undefined) sockets.endUser(user.id, 'password changed; sign in again');
    else if (patch.role !== undefined) await sockets.recheckUser(user.id);
    return c.json(userView(updated));
  });
}
