/**
 * @module Restore points: `GET /api/v1/firewall/snapshots` (the agent's list, newest first),
 * `POST` (a manual point, optional `name`), `GET .../{id}` (the point with its rules, in the shape
 * of `GET /firewall/rules`, to compare with the rules in force), `POST .../{id}/restore` (the
 * whole filter table of both families back to that point; the state before is kept as an
 * automatic point).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { Services } from '../../server/services.js';
import { agentResult } from '../../transactions/agent-call.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';
import { requester } from './firewall-transactions.js';

/** The agent stores at most 200 characters of a note. */
const createBody = z.strictObject({ name: z.string().min(1).max(200).optional() });

const idPattern = /^[0-9a-f-]{36}$/;

/** The id of the path, or 404 for anything that cannot be one (never a path to the agent's files). */
function snapshotId(c: Context<AppEnv>): string {
  const id = c.req.param('id') ?? '';
  if (!idPattern.test(id)) throw new ApiError('FW_SNAPSHOT_NOT_FOUND', 'no restore point with this id');
  return id;
}

export function registerSnapshotRoutes(defineRoute: DefineRoute, services: Services): void {
  defineRoute('/api/v1/firewall/snapshots', {
    GET: [
      requirePermission('firewall.read'),
      async (c) => ok(c, { snapshots: await services.firewall.listRestorePoints() }),
    ],
    POST: [
      requirePermission('firewall.write'),
      async (c) => {
        // An empty body is a point without a name.
        const body =
          c.req.header('content-length') === '0' && !c.req.header('content-type')
            ? {}
            : await readJsonBody(c, createBody, services.config.server.max_body_bytes);
        const snapshot = await services.firewall.createRestorePoint(body.name, requester(c));
        c.set('audited', true);
        return ok(c, { snapshot }, 201);
      },
    ],
  });
  defineRoute('/api/v1/firewall/snapshots/:id', {
    GET: [
      requirePermission('firewall.read'),
      async (c) =>
        ok(
          c,
          await agentResult(services.config.agent.socket_path, 'read_snapshot', {
            snapshot_id: snapshotId(c),
          }),
        ),
    ],
  });
  defineRoute('/api/v1/firewall/snapshots/:id/restore', {
    POST: [
      requirePermission('firewall.write'),
      async (c) => {
        const restored = await services.firewall.restore(snapshotId(c), requester(c));
        c.set('audited', true);
        return ok(c, restored);
      },
    ],
  });
}
