/**
 * An audit entry as both products' `GET /audit` answers it (snake_case, ISO-8601 time): every
 * field, the chain links included, so a client can re-check the hash chain it reads.
 */
import type { AuditEntry } from './audit-log.js';

export function auditEntryView(entry: AuditEntry) {
  return {
    seq: entry.seq,
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    request_id: entry.requestId,
    client: entry.client,
    detail: entry.detail,
    prev_hash: entry.prevHash,
    hash: entry.hash,
  };
}
