/**
 * @module Connecting to a node with the code it showed: this daemon presents the code to
 * `<node>/api/v1/nodes/pair` and keeps the credential the node returns.
 */
import { z } from 'zod';
import type { WorkspacedDb } from '../db/open-database.js';
import type { NodeRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { callNode, remoteErrorCode } from './node-client.js';
import { isWellFormedCredential } from './node-secrets.js';
import { storeOutboundCredential } from './node-store.js';

const pairAnswer = z.object({ credential: z.string().refine(isWellFormedCredential) });

export async function connectToNode(
  db: WorkspacedDb,
  node: NodeRow,
  remoteNodeId: number,
  code: string,
): Promise<NodeRow> {
  const answer = await callNode(node.url, '/nodes/pair', {
    method: 'POST',
    json: { node_id: remoteNodeId, code },
  });
  if (answer.status === 401 || answer.status === 400)
    throw new ApiError(422, 'PAIRING_REJECTED', 'the node refused the pairing code', {
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  const parsed = answer.status === 201 ? pairAnswer.safeParse(answer.body) : undefined;
  if (!parsed?.success)
    throw new ApiError(502, 'NODE_ERROR', `the node answered ${answer.status} to the pairing`, {
      remote_status: answer.status,
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  return storeOutboundCredential(db, node, parsed.data.credential);
}
