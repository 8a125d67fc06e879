/**
 * @module `GET /services/ports` (listening TCP sockets with their process), `GET /services/host`
 * (host snapshot), and the registry: `GET /services`, `POST /services`, `DELETE /services/{name}`.
 * Reading needs `services.view`, changing the registry `services.control`. A service tied to a
 * project is visible only to those who see the project (404 otherwise, like the project).
 */

import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ServiceRow } from '../db/schema.js';
import { notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import { hostSnapshot } from './host-snapshot.js';
import { listListeningSockets } from './listening-sockets.js';
import {
  findService,
  listServices,
  registerService,
  removeService,
  serviceView,
} from './service-registry.js';
import { newServiceSchema } from './service-schema.js';

async function seesProject(db: WorkspacedDb, principal: Principal, projectId: number): Promise<boolean> {
  const project = await findProject(db, projectId);
  return project !== undefined && (await effectiveProjectRole(db, principal, project)) !== undefined;
}

async function visibleService(db: WorkspacedDb, principal: Principal, row: ServiceRow | undefined) {
  return row !== undefined && (row.project_id === null || (await seesProject(db, principal, row.project_id)));
}

async function listeningPorts(): Promise<Set<number>> {
  return new Set((await listListeningSockets()).map((socket) => socket.port));
}

export function registerServiceRoutes(app: Hono<AppEnv>, { db, startedAt }: DaemonContext): void {
  app.get('/services/ports', requirePermission('services.view'), async (c) =>
    c.json({ ports: await listListeningSockets() }),
  );

  app.get('/services/host', requirePermission('services.view'), async (c) =>
    c.json(await hostSnapshot(startedAt)),
  );

  app.get('/services', requirePermission('services.view'), async (c) => {
    const [rows, listening] = await Promise.all([listServices(db), listeningPorts()]);
    const services = [];
    for (const row of rows)
      if (await visibleService(db, c.var.principal, row))
        services.push(serviceView(row, listening.has(row.port)));
    return c.json({ services });
  });

  app.post('/services', requirePermission('services.control'), async (c) => {
    const input = await readJson(c, newServiceSchema);
    if (input.project_id !== null && !(await seesProject(db, c.var.principal, input.project_id)))
      throw notFound('project');
    const row = await registerService(db, input, c.var.principal.id);
    return c.json(serviceView(row, (await listeningPorts()).has(row.port)), 201);
  });

  app.delete('/services/:name', requirePermission('services.control'), async (c) => {
    const name = c.req.param('name');
    if (!(await visibleService(db, c.var.principal, await findService(db, name)))) throw notFound('service');
    await removeService(db, name);
    return c.body(null, 204);
  });
}
