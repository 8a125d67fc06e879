/**
 * @module Agent operations as the API sees them: the result, or the API error a client can act
 * on. A missing or silent agent is 503 `FW_AGENT_UNAVAILABLE` with the reason; the agent's own
 * `FW_*` failures keep their code (validation errors keep their paths). The operations of one
 * API request share one connection.
 */
import { AgentConnection, AgentUnavailable } from '../agent-protocol/agent-client.js';
import type { Operation, Response } from '../agent-protocol/protocol.js';
import { ApiError } from '../http/api-error.js';
import type { ErrorCode } from '../http/error-codes.js';

/** Agent codes passed through as they are. */
const passedThrough: Record<string, ErrorCode> = {
  FW_VALIDATION_FAILED: 'FW_VALIDATION_FAILED',
  FW_APPLY_FAILED: 'FW_APPLY_FAILED',
  FW_SNAPSHOT_FAILED: 'FW_APPLY_FAILED',
  FW_ROLLBACK_FAILED: 'FW_ROLLBACK_FAILED',
  FW_SNAPSHOT_NOT_FOUND: 'FW_SNAPSHOT_NOT_FOUND',
  FW_TRANSACTION_NOT_FOUND: 'FW_TRANSACTION_NOT_PENDING',
  FW_TRANSACTION_PENDING: 'FW_TRANSACTION_PENDING',
  FW_UNMANAGED_RULES: 'FW_UNMANAGED_RULES',
  FW_BACKEND_CONFLICT: 'FW_BACKEND_CONFLICT',
  FW_BACKEND_NOT_FOUND: 'FW_BACKEND_NOT_FOUND',
  FW_BLOCKLIST_NOT_FOUND: 'FW_BLOCKLIST_NOT_FOUND',
  FW_BLOCKLIST_IN_USE: 'FW_BLOCKLIST_IN_USE',
  FW_BLOCKLIST_TOO_LARGE: 'FW_BLOCKLIST_TOO_LARGE',
};

const agentNotConnected = 'the firewarden agent is not connected; start firewarden-agent (firewarden agent)';

/** One agent operation's result; its API error when the agent is missing or refuses. */
export type AskAgent = <T>(op: Operation, params?: Record<string, unknown>) => Promise<T>;

/** `work` asking the agent over one connection, opened at its first question and closed after. */
export async function withAgent<T>(socketPath: string, work: (ask: AskAgent) => Promise<T>): Promise<T> {
  const connection = new AgentConnection(socketPath);
  try {
    return await work((op, params) => resultOf(op, connection.call(op, params)));
  } finally {
    connection.close();
  }
}

/** A request that asks the agent one thing. */
export function agentResult<T>(
  socketPath: string,
  op: Operation,
  params: Record<string, unknown> = {},
): Promise<T> {
  return withAgent(socketPath, (ask) => ask<T>(op, params));
}

async function resultOf<T>(op: Operation, call: Promise<Response>): Promise<T> {
  const answer = await call.catch((error: unknown) => {
    if (!(error instanceof AgentUnavailable)) throw error;
    throw new ApiError('FW_AGENT_UNAVAILABLE', agentNotConnected, { reason: error.reason });
  });
  if (answer.ok) return answer.result as T;
  const code = passedThrough[answer.error.code];
  if (code) throw new ApiError(code, answer.error.message, answer.error.details);
  throw new ApiError('FW_AGENT_UNAVAILABLE', `the agent refused ${op}: ${answer.error.message}`, {
    reason: 'agent_error',
    agent_error: answer.error.code,
  });
}
