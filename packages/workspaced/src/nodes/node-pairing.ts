/**
 * @module Connecting to a node with the code it showed: this daemon presents the code and a
 * random challenge to `<node>/api/v1/nodes/pair`, checks that the answer is signed by the node's
 * key (the one registered for it, or, when none was, the one it presents: trust on first use),
 * and keeps the credential and the key.
 */
import { randomBytes } from 'node:crypto';
import type { WorkspacedDb } from '../db/open-database.js';
import type { NodeRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { callNode, remoteErrorCode } from './node-client.js';
import { verifyPairing } from './node-identity.js';
import { redeemAnswerSchema } from './node-schema.js';
import { isWellFormedCredential } from './node-secrets.js';
import { assertNotRevoked, storeOutboundCredential } from './node-store.js';

export async function connectToNode(
  db: WorkspacedDb,
  node: NodeRow,
  remoteNodeId: number,
  code: string,
): Promise<NodeRow> {
  assertNotRevoked(node);
  const challenge = randomBytes(32).toString('base64url');
  const answer = await callNode(node.url, '/nodes/pair', {
    method: 'POST',
    json: { node_id: remoteNodeId, code, challenge },
  });
  if (answer.status === 401 || answer.status === 400)
    throw new ApiError('PAIRING_REJECTED', 'the node refused the pairing code', {
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  const parsed = answer.status === 201 ? redeemAnswerSchema.safeParse(answer.body) : undefined;
  if (!parsed?.success || !isWellFormedCredential(parsed.data.credential))
    throw new ApiError('NODE_ERROR', `the node answered ${answer.status} to the pairing`, {
      remote_status: answer.status,
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  const { credential, public_key: publicKey, signature } = parsed.data;
  if (node.public_key !== null && node.public_key !== publicKey)
    throw new ApiError(
      'NODE_IDENTITY_MISMATCH',
      'the node answered with another key than the one registered for it',
    );
  if (!verifyPairing(publicKey, challenge, credential, signature))
    throw new ApiError('NODE_IDENTITY_MISMATCH', "the node's answer is not signed by its key");
  return storeOutboundCredential(db, node, credential, publicKey);
}
