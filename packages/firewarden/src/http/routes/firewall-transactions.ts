/**
 * @module `POST /api/v1/firewall/transactions` (validate as a whole, lockout check against this
 * session, then the agent's safe apply), `POST .../{id}/confirm`, and the list and detail
 * (`pending`, `confirmed`, `applied`, `rolled_back`, `failed`). Admin only to change, viewer to read.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { Services } from '../../server/services.js';
import type { Requester } from '../../transactions/firewall-changes.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { parseOrThrow, readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';

/** The actions themselves are checked by the engine, which lists every problem by path. */
const transactionBody = z.strictObject({
  actions: z.array(z.unknown()),
  safe_apply: z.boolean().default(true),
  acknowledge_lockout: z.boolean().default(false),
  /** Lines of our chains the model cannot express (`FW_UNMANAGED_RULES`) the change may drop. */
  acknowledge_unmanaged: z.array(z.string().max(4_096)).max(1_000).default([]),
});

const listQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(50) });

/** Ids are UUIDs (the agent's or ours); anything else cannot exist. */
const idPattern = /^[0-9a-f-]{36}$/;

/** Handlers audit their own steps on success; refusals fall to the generic audit entry (with the code). */
export function requester(c: Context<AppEnv>): Requester {
  return {
    actor: c.get('auth')!.user.username,
    requestId: c.get('requestId'),
    client: c.get('clientAddress'),
  };
}

export function transactionId(c: Context<AppEnv>): string {
  const id = c.req.param('id') ?? '';
  if (!idPattern.test(id)) throw new ApiError('FW_TRANSACTION_NOT_FOUND', 'no transaction with this id');
  return id;
}

export function registerTransactionRoutes(
  defineRoute: DefineRoute,
  services: Services,
  managementPort: () => number,
): void {
  defineRoute('/api/v1/firewall/transactions', {
    GET: [
      requirePermission('firewall.read'),
      async (c) => {
        const query = parseOrThrow(listQuery, c.req.query(), 'the query');
        return ok(c, { transactions: await services.firewall.list(query.limit) });
      },
    ],
    POST: [
      requirePermission('firewall.write'),
      async (c) => {
        const body = await readJsonBody(c, transactionBody, services.config.server.max_body_bytes);
        const who = requester(c);
        const transaction = await services.firewall.begin(
          {
            actions: body.actions,
            safeApply: body.safe_apply,
            acknowledgeLockout: body.acknowledge_lockout,
            acknowledgeUnmanaged: body.acknowledge_unmanaged,
            managementPort: managementPort(),
          },
          who,
        );
        c.set('audited', true);
        return ok(c, { transaction }, 201);
      },
    ],
  });
  defineRoute('/api/v1/firewall/transactions/:id', {
    GET: [
      requirePermission('firewall.read'),
      async (c) => ok(c, { transaction: await services.firewall.get(transactionId(c)) }),
    ],
  });
  defineRoute('/api/v1/firewall/transactions/:id/confirm', {
    POST: [
      requirePermission('firewall.write'),
      async (c) => {
        const transaction = await services.firewall.confirm(transactionId(c), requester(c));
        c.set('audited', true);
        return ok(c, { transaction });
      },
    ],
  });
}
