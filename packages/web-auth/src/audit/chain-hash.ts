/**
 * @module How one audit entry is chained to the previous one. Entries written since the chain is
 * keyed store `hash = HMAC-SHA256(key, "web-auth-audit-v2\n" ‖ prev_hash ‖ canonical JSON)`: without
 * the key (kept outside the database) nobody can rewrite an entry and recompute the chain.
 * Entries written before store the legacy `SHA-256(prev_hash ‖ canonical JSON)`, which anyone can
 * recompute: they are accepted only before the first keyed entry, whose MAC then pins them.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type AuthAuditRow, toNumber } from '../schema/tables.js';
import { canonicalJson, type JsonValue } from './canonical-json.js';

export const genesisHash = '0'.repeat(64);

const keyedDomain = 'web-auth-audit-v2\n';

type HashedRow = Omit<AuthAuditRow, 'hash' | 'prev_hash'>;

/** The hashed form of an entry: every column but the hashes, numbers as numbers, detail as parsed JSON. */
export function hashedFields(row: HashedRow) {
  return {
    id: row.id,
    seq: toNumber(row.seq),
    at: toNumber(row.at),
    actor: row.actor,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    request_id: row.request_id,
    client: row.client,
    detail: JSON.parse(row.detail) as { [key: string]: JsonValue },
  };
}

/**
 * The unkeyed hash of entries written before the chain was keyed (throws on a detail that is not
 * JSON): all that someone who can edit the database but lacks the key can compute. Exported (as
 * `unkeyedAuditHash`) for the products' tests that play that attacker.
 */
export function legacyHash(prevHash: string, row: HashedRow): string {
  return createHash('sha256')
    .update(prevHash)
    .update(canonicalJson(hashedFields(row)))
    .digest('hex');
}

/** The keyed hash of an entry (throws on a detail that is not JSON). */
export function keyedHash(key: Uint8Array, prevHash: string, row: HashedRow): string {
  return createHmac('sha256', key)
    .update(keyedDomain)
    .update(prevHash)
    .update(canonicalJson(hashedFields(row)))
    .digest('hex');
}

/** An HMAC over a small record (a head, a checkpoint), under its own domain so it never equals an entry's. */
export function recordMac(key: Uint8Array, domain: string, record: { [key: string]: JsonValue }): string {
  return createHmac('sha256', key)
    .update(`web-auth-audit-${domain}\n`)
    .update(canonicalJson(record))
    .digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
