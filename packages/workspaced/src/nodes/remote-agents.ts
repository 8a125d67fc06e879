/**
 * @module Reading a paired node's agents: `GET <node>/api/v1/agents` with the credential the node
 * issued, the answer checked field by field (a node is another machine: its JSON is input like
 * any other, and unknown fields are dropped).
 */
import { z } from 'zod';
import type { NodeRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { callNode, remoteErrorCode } from './node-client.js';

const remoteAgent = z.object({
  terminal_id: z.number().int(),
  project_id: z.number().int(),
  agent: z.string().max(64),
  detected_by: z.string().max(32),
  pid: z.number().int().nullable(),
  command: z.array(z.string().max(4_096)).max(8).nullable(),
  state: z.string().max(64),
});
const remoteAgents = z.object({ agents: z.array(remoteAgent).max(10_000) });

type RemoteAgent = z.infer<typeof remoteAgent>;

export async function fetchNodeAgents(node: NodeRow): Promise<RemoteAgent[]> {
  if (node.status === 'revoked' || node.outbound_credential === null)
    throw new ApiError('NODE_NOT_PAIRED', 'this daemon holds no credential for the node; pair it first');
  const answer = await callNode(node.url, '/agents', { method: 'GET', credential: node.outbound_credential });
  if (answer.status === 401)
    throw new ApiError('NODE_CREDENTIAL_REFUSED', 'the node refused our credential (revoked there?)', {
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  if (answer.status !== 200)
    throw new ApiError('NODE_ERROR', `the node answered ${answer.status}`, {
      remote_status: answer.status,
      remote_code: remoteErrorCode(answer.body) ?? null,
    });
  const parsed = remoteAgents.safeParse(answer.body);
  if (!parsed.success) throw new ApiError('NODE_BAD_ANSWER', 'the node answered agents in an unknown shape');
  return parsed.data.agents;
}
