/**
 * @module Signed positions in the audit chain, stored in `auth_audit_marks`: `checkpoint` (the last
 * entry pruned by retention: verification starts from its hash) and `verified` (how far the last
 * verification got: an incremental one hashes only what follows). Each is MAC'd with the chain key,
 * so whoever edits the database cannot move one to skip or hide entries; a mark whose MAC does not
 * match is reported as tampering.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AuthDatabase } from '../schema/tables.js';
import { toNumber } from '../schema/tables.js';
import { recordMac, sameDigest } from './chain-hash.js';

type AuditMarkName = 'checkpoint' | 'verified';

export interface AuditMark {
  seq: number;
  /** The `hash` of the entry at `seq`. */
  hash: string;
  /** Whether that entry is keyed (then no legacy entry may follow). */
  keyed: boolean;
  at: number;
}

function macOf(key: Uint8Array, name: AuditMarkName, mark: AuditMark): string {
  return recordMac(key, 'mark', { name, seq: mark.seq, hash: mark.hash, keyed: mark.keyed, at: mark.at });
}

/** The mark, null when there is none, or 'forged' when its MAC does not match. */
export async function readMark(
  db: Kysely<AuthDatabase> | Transaction<AuthDatabase>,
  key: Uint8Array,
  name: AuditMarkName,
): Promise<AuditMark | null | 'forged'> {
  const row = await db.selectFrom('auth_audit_marks').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) return null;
  const mark: AuditMark = {
    seq: toNumber(row.seq),
    hash: row.hash,
    keyed: row.keyed === 1,
    at: toNumber(row.at),
  };
  return sameDigest(macOf(key, name, mark), row.mac) ? mark : 'forged';
}

export async function writeMark(
  db: Kysely<AuthDatabase> | Transaction<AuthDatabase>,
  key: Uint8Array,
  name: AuditMarkName,
  mark: AuditMark,
): Promise<void> {
  const values = {
    seq: mark.seq,
    hash: mark.hash,
    keyed: mark.keyed ? 1 : 0,
    at: mark.at,
    mac: macOf(key, name, mark),
  };
  await db
    .insertInto('auth_audit_marks')
    .values({ name, ...values })
    .onConflict((conflict) => conflict.column('name').doUpdateSet(values))
    .execute();
}
