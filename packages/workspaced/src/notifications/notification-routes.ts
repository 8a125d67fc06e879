/**
 * @module `GET/POST /notifications/rules` (list; upsert), `GET/PUT/DELETE
 * /notifications/rules/{id}` and `POST /notifications/test` (audited like every mutation).
 * Each user manages their own rules (`notifications.manage`); a rule scoped to a project needs
 * that project to be visible to its owner.
 */

import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { notFound } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readId, readJson } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import type { NotificationCenter } from './notification-center.js';
import { ruleInputSchema, ruleUpdateSchema, testInputSchema } from './notification-schema.js';

async function checkProject(db: WorkspacedDb, principal: Principal, projectId: number | null | undefined) {
  if (projectId === null || projectId === undefined) return;
  const project = await findProject(db, projectId);
  if (!project || !(await effectiveProjectRole(db, principal, project))) throw notFound('project');
}

export function registerNotificationRoutes(
  app: Hono<AppEnv>,
  { db, notifications }: { db: WorkspacedDb; notifications: NotificationCenter },
): void {
  app.use('/notifications/*', requirePermission('notifications.manage'));

  app.get('/notifications/rules', (c) => c.json({ rules: notifications.list(c.var.principal.id) }));

  app.post('/notifications/rules', async (c) => {
    const input = await readJson(c, ruleInputSchema);
    await checkProject(db, c.var.principal, input.project_id);
    const { rule, created, secret } = notifications.upsert(c.var.principal.id, input);
    return c.json({ ...rule, ...(secret === undefined ? {} : { secret }) }, created ? 201 : 200);
  });

  app.get('/notifications/rules/:id', (c) => c.json(notifications.get(c.var.principal.id, readId(c))));

  app.put('/notifications/rules/:id', async (c) => {
    const id = readId(c);
    const changes = await readJson(c, ruleUpdateSchema);
    await checkProject(db, c.var.principal, changes.project_id);
    const { rule, secret } = notifications.update(c.var.principal.id, id, changes);
    return c.json({ ...rule, ...(secret === undefined ? {} : { secret }) });
  });

  app.delete('/notifications/rules/:id', (c) => {
    notifications.remove(c.var.principal.id, readId(c));
    return c.body(null, 204);
  });

  app.post('/notifications/test', async (c) => {
    const { rule_id } = await readJson(c, testInputSchema);
    return c.json({ results: await notifications.test(c.var.principal, rule_id) });
  });
}
