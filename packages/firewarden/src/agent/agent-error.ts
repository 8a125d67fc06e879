/**
 * @module The errors the agent answers with. Codes are the server's `FW_*` codes where one fits,
 * so the server can pass them through, and `AGENT_*` for protocol problems.
 */

type AgentErrorCode =
  | 'AGENT_REQUEST_INVALID'
  | 'AGENT_UNKNOWN_OPERATION'
  | 'AGENT_MESSAGE_TOO_LARGE'
  | 'FW_VALIDATION_FAILED'
  | 'FW_APPLY_FAILED'
  | 'FW_ROLLBACK_FAILED'
  | 'FW_SNAPSHOT_FAILED'
  | 'FW_SNAPSHOT_NOT_FOUND'
  | 'FW_TRANSACTION_NOT_FOUND'
  | 'FW_TRANSACTION_PENDING'
  | 'FW_UNMANAGED_RULES'
  | 'FW_COMMAND_FAILED'
  | 'FW_BACKEND_CONFLICT'
  | 'FW_BACKEND_NOT_FOUND'
  | 'FW_BLOCKLIST_NOT_FOUND'
  | 'FW_BLOCKLIST_IN_USE'
  | 'FW_BLOCKLIST_TOO_LARGE'
  | 'INTERNAL_ERROR';

export class AgentError extends Error {
  override readonly name = 'AgentError';
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
