/**
 * @module `GET/POST /webhooks` (list with `settings.view`; create with `settings.manage`, the
 * secret shown in this answer only) and `PUT/DELETE /webhooks/{name}` (`settings.manage`).
 */
import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { newSigningSecret } from '../outbound/signed-delivery.js';
import { requireAllowedTarget } from '../outbound/target-check.js';
import { findProject } from '../projects/project-store.js';
import { createWebhookSchema, updateWebhookSchema, webhookNameSchema } from './webhook-schema.js';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  updateWebhook,
  webhookView,
} from './webhook-store.js';

export function registerWebhookRoutes(app: Hono<AppEnv>, { db, delivery }: DaemonContext): void {
  const checkProject = async (projectId: number | null | undefined) => {
    if (projectId != null && !(await findProject(db, projectId))) throw notFound('project');
  };
  const readName = (name: string | undefined) => {
    const parsed = webhookNameSchema.safeParse(name);
    if (!parsed.success) throw notFound('webhook');
    return parsed.data;
  };

  app.get('/webhooks', requirePermission('settings.view'), async (c) =>
    c.json({ webhooks: (await listWebhooks(db)).map(webhookView) }),
  );

  app.post('/webhooks', requirePermission('settings.manage'), async (c) => {
    const input = await readJson(c, createWebhookSchema);
    requireAllowedTarget(input.url, delivery.allowPrivateTargets);
    await checkProject(input.project_id);
    const now = Date.now();
    const row = {
      name: input.name,
      url: input.url,
      secret: input.secret ?? newSigningSecret(),
      events: JSON.stringify(input.events),
      enabled: input.enabled ? 1 : 0,
      project_id: input.project_id ?? null,
      created_by: c.var.principal.id,
      created_at: now,
      updated_at: now,
      last_delivery: null,
    };
    if (!(await insertWebhook(db, row)))
      throw new ApiError(
        'WEBHOOK_EXISTS',
        `a webhook named ${input.name} exists; PUT /webhooks/${input.name} changes it`,
      );
    return c.json({ ...webhookView(row), secret: row.secret }, 201);
  });

  app.put('/webhooks/:name', requirePermission('settings.manage'), async (c) => {
    const name = readName(c.req.param('name'));
    const changes = await readJson(c, updateWebhookSchema);
    if (!(await findWebhook(db, name))) throw notFound('webhook');
    if (changes.url !== undefined) requireAllowedTarget(changes.url, delivery.allowPrivateTargets);
    await checkProject(changes.project_id);
    await updateWebhook(db, name, {
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.events === undefined ? {} : { events: JSON.stringify(changes.events) }),
      ...(changes.enabled === undefined ? {} : { enabled: changes.enabled ? 1 : 0 }),
      ...(changes.project_id === undefined ? {} : { project_id: changes.project_id }),
      ...(changes.secret === undefined ? {} : { secret: changes.secret }),
      updated_at: Date.now(),
    });
    return c.json(webhookView((await findWebhook(db, name))!));
  });

  app.delete('/webhooks/:name', requirePermission('settings.manage'), async (c) => {
    if (!(await deleteWebhook(db, readName(c.req.param('name'))))) throw notFound('webhook');
    return c.body(null, 204);
  });
}
