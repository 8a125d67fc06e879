/**
 * @module The shape of one diagnostic finding, shared by `doctor`, `preflight`, `status` and
 * `GET /api/v1/system/diagnostics`.
 */
type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  /** Stable id: `config`, `database`, `migrations`, `audit_chain`... */
  name: string;
  status: CheckStatus;
  message: string;
  details?: Record<string, unknown>;
}

export function worstStatus(checks: readonly Check[]): CheckStatus {
  if (checks.some((check) => check.status === 'fail')) return 'fail';
  if (checks.some((check) => check.status === 'warn')) return 'warn';
  return 'ok';
}
