/**
 * @module Retention: deletes the entries older than a cutoff while the chain stays verifiable.
 * Only entries a full verification has just covered are pruned (a trail that does not verify is kept
 * whole, as evidence), never the entry the head names nor the newest, and the hash of the last
 * pruned entry becomes the signed `checkpoint` that verification starts from, in the same
 * transaction as the deletion.
 */
import type { StoreContext } from '../context.js';
import { serializedTransaction } from '../schema/serialized.js';
import { toNumber } from '../schema/tables.js';
import type { AuditHeadStore } from './audit-head.js';
import { writeMark } from './audit-marks.js';
import { keyedHash, sameDigest } from './chain-hash.js';
import { type AuditChainBroken, verifyAuditChain } from './chain-verify.js';
import type { RefusalCounter } from './refusal-counter.js';

export interface AuditPruneResult {
  /** Entries deleted. */
  pruned: number;
  /** Refusal windows deleted. */
  refusalWindows: number;
  /** The checkpoint now in force (null when nothing was ever pruned). */
  checkpoint: { seq: number; hash: string } | null;
  /** Set when nothing was pruned because the chain does not verify. */
  refused?: AuditChainBroken;
}

export async function pruneAuditTrail(
  context: StoreContext,
  key: Uint8Array,
  headStore: AuditHeadStore,
  refusals: RefusalCounter,
  before: number,
): Promise<AuditPruneResult> {
  const refusalWindows = await refusals.prune(before);
  // A full verification: an entry edited since the last one must not vanish with the evidence.
  const verdict = await verifyAuditChain(context, key, headStore);
  if (!verdict.ok) return { pruned: 0, refusalWindows, checkpoint: null, refused: verdict };
  // Below the head and the newest entry, so both stay in the trail to be checked.
  const limit = Math.min(verdict.head?.seq ?? 0, verdict.last?.seq ?? 0) - 1;
  return serializedTransaction(context, 'auth_audit', async (trx) => {
    const last = await trx
      .selectFrom('auth_audit')
      .selectAll()
      .where('at', '<', before)
      .where('seq', '<=', limit)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return { pruned: 0, refusalWindows, checkpoint: null };
    const seq = toNumber(last.seq);
    const deleted = await trx.deleteFrom('auth_audit').where('seq', '<=', seq).executeTakeFirst();
    // A keyed entry pins everything before it; the flag keeps legacy entries from following it.
    let keyed: boolean;
    try {
      keyed = sameDigest(keyedHash(key, last.prev_hash, last), last.hash);
    } catch {
      keyed = false;
    }
    await writeMark(trx, key, 'checkpoint', { seq, hash: last.hash, keyed, at: context.now() });
    return { pruned: Number(deleted.numDeletedRows), refusalWindows, checkpoint: { seq, hash: last.hash } };
  });
}
