/**
 * @module Named blocklists: `GET /api/v1/firewall/blocklists` (every list with its number of
 * entries), `GET .../{name}` (one with its entries), `PUT .../{name}` (`{entries, family?,
 * comment?}` replaces the list whole) and `DELETE .../{name}`. A PUT or DELETE is a transaction
 * like a rule change (safe apply unless `safe_apply: false`, lockout check, restore point) and
 * answers it. The body of a PUT may be far larger than other requests (`blocklistBounds`).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { blocklistBounds, blocklistFamilies, isBlocklistName } from '../../engine/blocklist.js';
import { BlocklistMerge } from '../../engine/blocklist-entries.js';
import { finishInTurns } from '../../engine/stepped-work.js';
import { unexaminedArray } from '../../engine/unexamined-array.js';
import type { Services } from '../../server/services.js';
import { agentResult } from '../../transactions/agent-call.js';
import type { BlocklistRequest } from '../../transactions/session-lockout.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';
import { requester } from './firewall-transactions.js';

/** Printable text without control characters: comments are shown in the UI and the CLI. */
const printable = (text: string) => [...text].every((c) => c >= ' ' && !(c >= '\u007f' && c <= '\u009f'));

const putBody = z.strictObject({
  /** Checked one by one by the engine, which lists every bad entry by path; bounded below. */
  entries: unexaminedArray(),
  family: z.enum(blocklistFamilies).default('both'),
  comment: z
    .string()
    .max(blocklistBounds.commentLength)
    .refine(printable, 'must hold no control characters')
    .nullable()
    .default(null),
  safe_apply: z.boolean().default(true),
  acknowledge_lockout: z.boolean().default(false),
});

const deleteBody = z.strictObject({
  safe_apply: z.boolean().default(true),
  acknowledge_lockout: z.boolean().default(false),
});

/** Entries parsed (or blocks formatted) per turn: a few milliseconds of work. */
const entriesPerTurn = 10_000;

function blocklistName(c: Context<AppEnv>): string {
  const name = c.req.param('name') ?? '';
  if (!isBlocklistName(name)) throw new ApiError('FW_BLOCKLIST_NOT_FOUND', 'no blocklist with this name');
  return name;
}

/** The PUT body within the list's own byte bound: past it, the blocklist's 413. */
async function readPutBody(c: Context<AppEnv>) {
  try {
    return await readJsonBody(c, putBody, blocklistBounds.bytesPerList);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'REQUEST_TOO_LARGE')) throw error;
    throw new ApiError(
      'FW_BLOCKLIST_TOO_LARGE',
      `a blocklist request may be at most ${blocklistBounds.bytesPerList} bytes`,
      { limit: blocklistBounds.bytesPerList, unit: 'bytes' },
    );
  }
}

export function registerBlocklistRoutes(
  defineRoute: DefineRoute,
  services: Services,
  managementPort: () => number,
): void {
  const socketPath = () => services.config.agent.socket_path;
  const change = async (
    c: Context<AppEnv>,
    blocklist: BlocklistRequest | Promise<BlocklistRequest>,
    body: z.output<typeof deleteBody>,
  ) => {
    const transaction = await services.firewall.begin(
      {
        actions: [],
        blocklist,
        safeApply: body.safe_apply,
        acknowledgeLockout: body.acknowledge_lockout,
        acknowledgeUnmanaged: [],
        managementPort: managementPort(),
      },
      requester(c),
    );
    c.set('audited', true);
    return transaction;
  };

  defineRoute('/api/v1/firewall/blocklists', {
    GET: [
      requirePermission('firewall.read'),
      async (c) => ok(c, await agentResult(socketPath(), 'blocklists')),
    ],
  });
  defineRoute('/api/v1/firewall/blocklists/:name', {
    GET: [
      requirePermission('firewall.read'),
      async (c) => {
        const { blocklist } = await agentResult<{
          blocklist: {
            name: string;
            family: string;
            comment: string | null;
            entries: Record<string, string[]>;
          };
        }>(socketPath(), 'blocklists', { name: blocklistName(c) });
        const entries = [...(blocklist.entries.ipv4 ?? []), ...(blocklist.entries.ipv6 ?? [])];
        return ok(c, { blocklist: { ...blocklist, entries, count: entries.length } });
      },
    ],
    PUT: [
      requirePermission('firewall.write'),
      async (c) => {
        const name = blocklistName(c);
        const body = await readPutBody(c);
        if (body.entries.length > blocklistBounds.entriesPerList) {
          throw new ApiError(
            'FW_BLOCKLIST_TOO_LARGE',
            `a blocklist may hold at most ${blocklistBounds.entriesPerList} entries (${body.entries.length} sent)`,
            { limit: blocklistBounds.entriesPerList, unit: 'entries', received: body.entries.length },
          );
        }
        // A slice per turn of the event loop: other requests are answered while a large list
        // merges, and the transaction reads the rules from the agent meanwhile.
        const request = finishInTurns(
          new BlocklistMerge(body.entries, body.family, 'entries'),
          entriesPerTurn,
        ).then((merged): BlocklistRequest & { op: 'set' } => {
          if (!merged.ok) {
            throw new ApiError('FW_VALIDATION_FAILED', `${merged.invalid} entries are invalid`, {
              errors: merged.errors,
              invalid: merged.invalid,
            });
          }
          const list = { name, family: body.family, comment: body.comment, entries: merged.entries };
          return { op: 'set', list, merged };
        });
        const transaction = await change(c, request, body);
        const { merged } = await request;
        return ok(c, {
          transaction,
          blocklist: {
            name,
            family: body.family,
            comment: body.comment,
            entries: merged.stored,
            received: merged.received,
          },
        });
      },
    ],
    DELETE: [
      requirePermission('firewall.write'),
      async (c) => {
        const name = blocklistName(c);
        // The body is optional: a DELETE without one is a safe apply.
        const body =
          c.req.header('content-type') === undefined
            ? deleteBody.parse({})
            : await readJsonBody(c, deleteBody, services.config.server.max_body_bytes);
        return ok(c, { transaction: await change(c, { op: 'delete', name }, body) });
      },
    ],
  });
}
