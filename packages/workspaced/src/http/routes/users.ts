/**
 * @module `GET /users` (users.view) and `POST /users` (users.manage): list accounts and create one
 * with a role no stronger than the creator's own.
 */
import type { WebAuth } from '@suite/web-auth';
import type { Hono } from 'hono';
import { z } from 'zod';
import { requirePermission } from '../../access/project-access.js';
import { roleSchema, roleWithin } from '../../access/roles.js';
import { userView } from '../../auth/principal.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { readJson, readQuery } from '../request-input.js';

const createUserSchema = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(4_096),
  display_name: z.string().trim().min(1).max(200).optional(),
  role: roleSchema,
});
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export function registerUserRoutes(app: Hono<AppEnv>, auth: WebAuth): void {
  app.get('/users', requirePermission('users.view'), async (c) => {
    const query = readQuery(c, listQuery);
    const users = await auth.users.list({ limit: query.limit, offset: query.offset });
    return c.json({ users: users.map(userView), total: await auth.users.count() });
  });

  app.post('/users', requirePermission('users.manage'), async (c) => {
    const input = await readJson(c, createUserSchema);
    if (!roleWithin(input.role, c.var.principal.role))
      throw new ApiError(403, 'ROLE_TOO_HIGH', `a ${c.var.principal.role} cannot create a ${input.role}`);
    const user = await auth.users.create({
      username: input.username,
      password: input.password,
      displayName: input.display_name ?? null,
      role: input.role,
    });
    return c.json(userView(user), 201);
  });
}
