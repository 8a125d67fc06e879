/**
 * @module Verification of the audit chain: every entry after the starting point links to the one
 * before and carries the right hash (keyed, or legacy before the first keyed entry), and the head
 * kept outside the database names an entry that is still there, unchanged. Starts from the signed
 * retention checkpoint (genesis when nothing was pruned), or, incrementally, from the signed
 * position the last verification reached after checking that entry is unchanged.
 */
import type { StoreContext } from '../context.js';
import { toNumber } from '../schema/tables.js';
import type { AuditHead, AuditHeadStore } from './audit-head.js';
import { type AuditMark, readMark, writeMark } from './audit-marks.js';
import { genesisHash, keyedHash, legacyHash, sameDigest } from './chain-hash.js';

export type AuditChainReason =
  /** An entry is absent (deleted in the middle). */
  | 'missing'
  /** An entry's `prev_hash` is not its predecessor's hash. */
  | 'prev_hash'
  /** An entry's hash is wrong: it was edited (re-hashing needs the key). */
  | 'hash'
  /** An entry after the chain was keyed carries an unkeyed hash: rewritten without the key. */
  | 'unkeyed'
  /** An entry's detail is not JSON. */
  | 'detail'
  /** The trail ends before the head kept outside the database: the newest entries were deleted. */
  | 'truncated'
  /** The entry the head names has another hash: the newest entries were replaced. */
  | 'head_mismatch'
  /** The trail has keyed entries but the head file is gone. */
  | 'head_missing'
  /** The head file cannot be read or parsed. */
  | 'head_unreadable'
  /** A checkpoint or verified mark was edited in the database. */
  | 'mark_forged';

interface VerdictCommon {
  /** Entries hashed by this verification. */
  checked: number;
  /** The seq it started after (0: genesis; else the retention checkpoint or the last verified entry). */
  from: number;
  /** The head kept outside the database that the trail was checked against (null when none yet). */
  head: AuditHead | null;
  /** Whether it started from the checkpoint (true) or from the last verified entry. */
  full: boolean;
}

export interface AuditChainIntact extends VerdictCommon {
  ok: true;
  /** Entries in the trail (since the retention checkpoint). */
  count: number;
  /** Hash of the newest entry (`genesisHash` when empty). */
  headHash: string;
  /** The newest entry. */
  last: AuditHead | null;
  /** Of the entries checked, how many carry the legacy unkeyed hash (written before keying). */
  legacy: number;
  /** Entries newer than the head (a few at most after a crash between commit and head write). */
  unanchored: number;
}

export interface AuditChainBroken extends VerdictCommon {
  ok: false;
  brokenSeq: number;
  reason: AuditChainReason;
  /** What was found, for a person. */
  problem: string;
}

export type AuditChainVerdict = AuditChainIntact | AuditChainBroken;

export interface VerifyOptions {
  /** Start from the last verified entry instead of the checkpoint (hash only new entries). */
  incremental?: boolean;
  /** Record how far it got (default true); false for read-only diagnostics. */
  remember?: boolean;
}

const pageSize = 1_000;
const genesis: AuditMark = { seq: 0, hash: genesisHash, keyed: false, at: 0 };

export async function verifyAuditChain(
  context: StoreContext,
  key: Uint8Array,
  headStore: AuditHeadStore,
  options: VerifyOptions = {},
): Promise<AuditChainVerdict> {
  const { db } = context;
  const full = options.incremental !== true;
  let head: AuditHead | null = null;
  let start = genesis;
  const broken = (
    brokenSeq: number,
    reason: AuditChainReason,
    problem: string,
    checked = 0,
  ): AuditChainBroken => ({
    ok: false,
    brokenSeq,
    reason,
    problem,
    checked,
    from: start.seq,
    head,
    full,
  });

  // The head first: entries appended while this runs are then past it, never missing from it.
  try {
    head = await headStore.read();
  } catch (error) {
    return broken(0, 'head_unreadable', (error as Error).message);
  }
  const checkpoint = await readMark(db, key, 'checkpoint');
  if (checkpoint === 'forged')
    return broken(0, 'mark_forged', 'the retention checkpoint was edited in the database');
  if (checkpoint) start = checkpoint;
  if (!full) {
    const verified = await readMark(db, key, 'verified');
    if (verified === 'forged')
      return broken(0, 'mark_forged', 'the verified mark was edited in the database');
    if (verified && verified.seq > start.seq) {
      const row = await db
        .selectFrom('auth_audit')
        .select('hash')
        .where('seq', '=', verified.seq)
        .executeTakeFirst();
      if (!row) return broken(verified.seq, 'missing', `entry ${verified.seq}, verified before, was deleted`);
      if (row.hash !== verified.hash)
        return broken(verified.seq, 'hash', `entry ${verified.seq}, verified before, was rewritten`);
      start = verified;
    }
  }

  let prevHash = start.hash;
  let expectedSeq = start.seq + 1;
  let keyed = start.keyed;
  let checked = 0;
  let legacy = 0;
  let headRowHash: string | undefined = head && head.seq === start.seq ? start.hash : undefined;
  for (;;) {
    const rows = await db
      .selectFrom('auth_audit')
      .selectAll()
      .where('seq', '>=', expectedSeq)
      .orderBy('seq', 'asc')
      .limit(pageSize)
      .execute();
    for (const row of rows) {
      if (toNumber(row.seq) !== expectedSeq)
        return broken(expectedSeq, 'missing', `entry ${expectedSeq} was deleted`, checked);
      if (row.prev_hash !== prevHash)
        return broken(
          expectedSeq,
          'prev_hash',
          `entry ${expectedSeq} does not link to entry ${expectedSeq - 1}`,
          checked,
        );
      let matchesKeyed: boolean;
      try {
        matchesKeyed = sameDigest(keyedHash(key, prevHash, row), row.hash);
      } catch {
        return broken(expectedSeq, 'detail', `entry ${expectedSeq} has a detail that is not JSON`, checked);
      }
      if (matchesKeyed) keyed = true;
      else if (legacyHash(prevHash, row) !== row.hash)
        return broken(
          expectedSeq,
          'hash',
          `entry ${expectedSeq} was rewritten (its hash does not match)`,
          checked,
        );
      else if (keyed)
        return broken(
          expectedSeq,
          'unkeyed',
          `entry ${expectedSeq} was rewritten and re-hashed without the key (unkeyed hash after the chain was keyed)`,
          checked,
        );
      else legacy++;
      if (head && expectedSeq === head.seq) headRowHash = row.hash;
      prevHash = row.hash;
      expectedSeq++;
      checked++;
    }
    if (rows.length < pageSize) break;
  }

  const lastSeq = expectedSeq - 1;
  if (head) {
    if (head.seq > lastSeq)
      return broken(
        lastSeq + 1,
        'truncated',
        `the trail ends at entry ${lastSeq} but its head (${headStore.location}) names entry ${head.seq}: the newest entries were deleted`,
        checked,
      );
    if (headRowHash === undefined) {
      const row = await db
        .selectFrom('auth_audit')
        .select('hash')
        .where('seq', '=', head.seq)
        .executeTakeFirst();
      headRowHash = row?.hash;
    }
    if (headRowHash === undefined || !sameDigest(headRowHash, head.mac))
      return broken(
        head.seq,
        'head_mismatch',
        `entry ${head.seq} is not the one the head (${headStore.location}) names: the newest entries were replaced`,
        checked,
      );
  } else if (keyed) {
    return broken(
      lastSeq,
      'head_missing',
      `the trail is keyed but its head ${headStore.location} is missing`,
      checked,
    );
  }
  if (options.remember !== false && lastSeq > start.seq)
    await writeMark(db, key, 'verified', { seq: lastSeq, hash: prevHash, keyed, at: context.now() });
  return {
    ok: true,
    count: lastSeq - (checkpoint ? checkpoint.seq : 0),
    headHash: prevHash,
    last: lastSeq > 0 ? { seq: lastSeq, mac: prevHash } : null,
    legacy,
    unanchored: lastSeq - (head?.seq ?? 0),
    checked,
    from: start.seq,
    head,
    full,
  };
}
