/**
 * @module `GET /attention` (open items first, then recently resolved ones, of the projects where
 * the caller has `agent.view`) and `POST /attention/{id}/resolve` (a task item needs
 * `tasks.write`, an agent or workflow item `agent.control`, in the item's project).
 */
import type { Hono } from 'hono';
import { type Permission, roleHas } from '../access/permissions.js';
import { denied, effectiveProjectRole } from '../access/project-permission.js';
import { notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readId } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';

export function registerAttentionRoutes(app: Hono<AppEnv>, { db, attention }: DaemonContext): void {
  const roleIn = async (principal: AppEnv['Variables']['principal'], projectId: number) => {
    const project = await findProject(db, projectId);
    return project ? effectiveProjectRole(db, principal, project) : undefined;
  };

  app.get('/attention', async (c) => {
    const roles = new Map<number, Awaited<ReturnType<typeof roleIn>>>();
    const visible = [];
    for (const item of attention.list()) {
      if (!roles.has(item.project_id))
        roles.set(item.project_id, await roleIn(c.var.principal, item.project_id));
      const role = roles.get(item.project_id);
      if (role && roleHas(role, 'agent.view')) visible.push(item);
    }
    visible.sort((a, b) => Number(a.resolved_at !== null) - Number(b.resolved_at !== null) || b.id - a.id);
    return c.json({ items: visible });
  });

  app.post('/attention/:id/resolve', async (c) => {
    const item = attention.get(readId(c));
    const role = item ? await roleIn(c.var.principal, item.project_id) : undefined;
    if (!item || !role || !roleHas(role, 'agent.view')) throw notFound('attention item');
    const needed: Permission = item.kind.startsWith('task.') ? 'tasks.write' : 'agent.control';
    if (!roleHas(role, needed)) throw denied(needed);
    return c.json(attention.resolve(item, c.var.principal.id));
  });
}
