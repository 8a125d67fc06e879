/**
 * @module `GET /projects/{id}/members` (project.view) and `POST /projects/{id}/members`
 * {user_id or username, role} (project.manage): set or change a member's role, never above the
 * caller's own role in that project; `DELETE /projects/{id}/members/{user_id}` removes one.
 * Either has the member's open sockets check their access again (4403 where it was withdrawn).
 */
import type { User, WebAuth } from '@suite/web-auth';
import type { Hono } from 'hono';
import { z } from 'zod';
import { projectGuard } from '../access/project-access.js';
import { projectRoleSchema, roleWithin } from '../access/roles.js';
import type { MemberRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { listMembers, removeMember, setMember } from './project-store.js';

const setMemberSchema = z
  .object({
    user_id: z.string().min(1).max(64).optional(),
    username: z.string().min(1).max(64).optional(),
    role: projectRoleSchema,
  })
  .refine((body) => (body.user_id === undefined) !== (body.username === undefined), {
    message: 'send exactly one of user_id, username',
  });

function memberView(row: MemberRow, user: User | undefined) {
  return {
    user_id: row.user_id,
    username: user?.username ?? null,
    display_name: user?.displayName ?? null,
    role: row.role,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function registerMemberRoutes(app: Hono<AppEnv>, { db, sockets }: DaemonContext, auth: WebAuth): void {
  app.get('/projects/:id/members', projectGuard(db, 'project.view'), async (c) => {
    const rows = await listMembers(db, c.var.project.id);
    const members = await Promise.all(
      rows.map(async (row) => memberView(row, await auth.users.getById(row.user_id))),
    );
    return c.json({ members });
  });

  app.post('/projects/:id/members', projectGuard(db, 'project.manage'), async (c) => {
    const input = await readJson(c, setMemberSchema);
    if (!roleWithin(input.role, c.var.projectRole))
      throw new ApiError('ROLE_TOO_HIGH', `a ${c.var.projectRole} cannot grant ${input.role}`);
    const user =
      input.user_id !== undefined
        ? await auth.users.getById(input.user_id)
        : await auth.users.getByUsername(input.username ?? '');
    if (!user) throw new ApiError('USER_NOT_FOUND', 'no such user');
    const row = await setMember(db, c.var.project.id, user.id, input.role);
    await sockets.recheckUser(user.id);
    return c.json(memberView(row, user));
  });

  app.delete('/projects/:id/members/:userId', projectGuard(db, 'project.manage'), async (c) => {
    const removed = await removeMember(db, c.var.project.id, c.req.param('userId'));
    if (!removed) throw new ApiError('NOT_FOUND', 'no such member');
    await sockets.recheckUser(c.req.param('userId'));
    return c.body(null, 204);
  });
}
