/**
 * @module The `audit_chain` diagnostic: verifies the keyed audit chain against its head kept
 * outside the database and says what was found (intact, truncated, rewritten) and which head it
 * checked. Incremental by default (only entries since the last verification the server recorded
 * are hashed); `full` re-hashes every entry since the retention checkpoint. Diagnostics create
 * nothing: a missing key is not created, and `remember` is false for the CLI.
 */
import type { AuditChainReason, AuditChainVerdict, SqlDialectName } from '@suite/web-auth';
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
  /** Record how far the verification got (the server does; the CLI, read-only, does not). */
  remember: boolean;
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
    const chain = firewardenAuditChain(options.config, { create: false });
    if (!chain.keyFound) keyNote = ` (the audit key ${chain.keyFile} does not exist)`;
    const auth = createWebAuth({ db, dialect, audit: chain });
    verdict = await auth.audit.verifyChain({ incremental: !options.full, remember: options.remember });
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
