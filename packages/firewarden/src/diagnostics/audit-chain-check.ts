/**
 * @module The `audit_chain` diagnostic: verifies the keyed audit chain against its head kept
 * outside the database and says what was found (intact, truncated, rewritten) and which head it
 * checked. Incremental by default (only entries since the last verification the server recorded
 * are hashed); `full` re-hashes every entry since the retention checkpoint. The server checks its
 * own audit log; the CLI creates nothing: a missing key is not created and no mark is recorded.
 */
import type { AuditChainReason, AuditChainVerdict, AuditLog, SqlDialectName } from '@suite/web-auth';
import { createWebAuth } from '@suite/web-auth';
import type { Kysely } from 'kysely';
import { firewardenAuditChain } from '../audit/audit-chain-files.js';
import type { Config } from '../config/schema.js';
import type { Database } from '../store/database.js';
import type { Check } from './check.js';

export interface AuditChainCheckOptions {
  config: Config;
  /** Re-hash the whole chain instead of only what follows the last verified entry. */
  full: boolean;
  /** The running server's audit log (it records how far the verification got); the CLI has none. */
  audit?: AuditLog;
}

const findings: Record<AuditChainReason, string> = {
  truncated: 'truncated',
  head_mismatch: 'rewritten',
  hash: 'rewritten',
  unkeyed: 'rewritten',
  prev_hash: 'rewritten',
  detail: 'rewritten',
  missing: 'entries deleted',
  head_missing: 'head missing',
  head_unreadable: 'head unreadable',
  mark_forged: 'checkpoint forged',
};

export async function auditChainCheck(
  db: Kysely<Database>,
  dialect: SqlDialectName,
  options: AuditChainCheckOptions,
): Promise<Check> {
  let verdict: AuditChainVerdict;
  let keyNote = '';
  try {
    let audit = options.audit;
    if (!audit) {
      const chain = firewardenAuditChain(options.config, { create: false });
      if (!chain.keyFound) keyNote = ` (the audit key ${chain.keyFile} does not exist)`;
      audit = createWebAuth({ db, dialect, audit: chain }).audit;
    }
    verdict = await audit.verifyChain({ incremental: !options.full, remember: options.audit !== undefined });
  } catch (error) {
    return { name: 'audit_chain', status: 'fail', message: `cannot verify: ${(error as Error).message}` };
  }
  const head = verdict.head ? `head entry ${verdict.head.seq}` : 'no head yet';
  const scope = verdict.full ? 'full' : `incremental, from entry ${verdict.from + 1}`;
  if (verdict.ok)
    return {
      name: 'audit_chain',
      status: 'ok',
      message: `${verdict.count} entries, chain intact (${head}; ${verdict.checked} hashed, ${scope})${keyNote}`,
      details: { ...verdict },
    };
  return {
    name: 'audit_chain',
    status: 'fail',
    message: `audit trail ${findings[verdict.reason]} at entry ${verdict.brokenSeq}: ${verdict.problem} (${head}, ${scope})${keyNote}`,
    details: { ...verdict },
  };
}
