/**
 * @module `POST /events` {stream, type, data, critical}: a custom event on the bus, answered 202
 * with its sequence number. Streams are `project:<id>` (the caller needs `events.publish` in
 * that project); types are dotted lower-case names outside the daemon's own namespaces, so a
 * client can never forge a task, terminal, attention or workflow event. `data` is bounded in depth
 * and size (event-data-limits.ts); `critical` is a priority for slow sockets, never a promise
 * (event-socket.ts).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { roleHas } from '../access/permissions.js';
import { denied, effectiveProjectRole } from '../access/project-permission.js';
import { notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import { checkEventData } from './event-data-limits.js';

/** Namespaces the daemon publishes itself (README "Webhooks and custom events"). */
const reservedNamespaces = new Set(['agent', 'attention', 'notification', 'task', 'terminal', 'workflow']);

const customEventSchema = z
  .object({
    stream: z.string().regex(/^project:[1-9][0-9]{0,14}$/, 'a stream of the form project:<id>'),
    type: z
      .string()
      .max(100)
      .regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, 'a dotted lower-case name such as deploy.finished')
      .refine(
        (type) => !reservedNamespaces.has(type.slice(0, type.indexOf('.'))),
        'this namespace is the daemon’s own',
      ),
    data: z.record(z.string(), z.unknown()).default({}),
    critical: z.boolean().default(false),
  })
  .strict();

export function registerEventRoutes(app: Hono<AppEnv>, { db, events }: DaemonContext): void {
  app.post('/events', async (c) => {
    const input = await readJson(c, customEventSchema);
    checkEventData(input.data);
    const project = await findProject(db, Number(input.stream.slice('project:'.length)));
    const role = project ? await effectiveProjectRole(db, c.var.principal, project) : undefined;
    if (!role) throw notFound('project');
    if (!roleHas(role, 'events.publish')) throw denied('events.publish');
    const event = events.publish(input.stream, input.type, input.data, input.critical, 'client');
    return c.json({ seq: event.seq, stream: event.stream, type: event.type, ts: event.ts }, 202);
  });
}
