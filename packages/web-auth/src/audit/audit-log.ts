/**
 * @module The append-only, keyed hash chain of audit entries in `auth_audit`.
 *
 * Each entry stores `hash = HMAC-SHA256(key, domain ‖ prev_hash ‖ canonical JSON of the entry)`
 * (hex, see chain-hash.ts), the first chaining to 64 zeros; the key lives outside the database, and
 * so does the head (the newest entry's seq and hash), written after each append: see
 * audit-key.ts and audit-head.ts. Appends are serialized so the chain never forks: an in-process
 * queue, then `serializedTransaction` (a PostgreSQL advisory lock, so several server processes
 * queue too; SQLite's write lock); the unique `seq` column turns any lost race into a retry.
 */
import { randomUUID } from 'node:crypto';
import type { StoreContext } from '../context.js';
import { serializedTransaction } from '../schema/serialized.js';
import { type AuthAuditRow, toNumber } from '../schema/tables.js';
import type { AuditHead, AuditHeadStore } from './audit-head.js';
import { type AuditPruneResult, pruneAuditTrail } from './audit-retention.js';
import { boundedCanonicalJson, type JsonValue } from './canonical-json.js';
import { genesisHash, hashedFields, keyedHash } from './chain-hash.js';
import { type AuditChainVerdict, type VerifyOptions, verifyAuditChain } from './chain-verify.js';
import {
  type AuditRefusal,
  type AuditRefusalInput,
  type AuditRefusalQuery,
  createRefusalCounter,
} from './refusal-counter.js';

export { genesisHash };

export interface AuditChainOptions {
  /** The HMAC key, at least 32 bytes, kept outside the database (`loadOrCreateAuditKey`). */
  key: Uint8Array;
  /** Where the head is kept outside the database (`fileAuditHead`). */
  head: AuditHeadStore;
  /** Length of a refusal-counting window; default 60. */
  refusalWindowSeconds?: number;
}

export interface AuditEntryInput {
  /** Who acted: a user id or username, `system`, or null when unknown. */
  actor?: string | null;
  /** What was done, e.g. `auth.login`, `settings.update`. */
  action: string;
  /** What it was done to. */
  target?: string | null;
  /** e.g. `success`, `failure`, `denied`, `rate_limited`. */
  outcome: string;
  requestId?: string | null;
  /** Client address. */
  client?: string | null;
  /** Any JSON object; never put secrets here. */
  detail?: { [key: string]: JsonValue };
}

export interface AuditEntry {
  id: string;
  seq: number;
  /** Epoch milliseconds. */
  at: number;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: string;
  requestId: string | null;
  client: string | null;
  detail: { [key: string]: JsonValue };
  prevHash: string;
  hash: string;
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  outcome?: string;
  /** Epoch milliseconds, inclusive (NaN and infinities are ignored, like every bound here). */
  since?: number;
  /** Epoch milliseconds, exclusive. */
  until?: number;
  /** 1-500, default 50 (out-of-range values are clamped). */
  limit?: number;
  /** Cursor: only entries with a smaller seq (pass the previous page's `nextBefore`). */
  before?: number;
}

export interface AuditPage {
  /** Newest first. */
  entries: AuditEntry[];
  /** The `before` of the next (older) page, or null when this was the last. */
  nextBefore: number | null;
}

export interface AuditLog {
  append(entry: AuditEntryInput): Promise<AuditEntry>;
  list(query?: AuditQuery): Promise<AuditPage>;
  /** Full by default (from the retention checkpoint); `{ incremental: true }` hashes only new entries. */
  verifyChain(options?: VerifyOptions): Promise<AuditChainVerdict>;
  /** Counts a refused or unauthenticated request in its kind's current window (no chained entry). */
  countRefusal(refusal: AuditRefusalInput): Promise<void>;
  /** Refusal windows, newest first. */
  listRefusals(query?: AuditRefusalQuery): Promise<AuditRefusal[]>;
  /** Deletes entries and refusal windows older than `before` (epoch ms), keeping the chain verifiable. */
  prune(before: number): Promise<AuditPruneResult>;
}

export const auditListMaxLimit = 500;
const auditListDefaultLimit = 50;
const textFieldMaxLength = 256;
const detailMaxBytes = 16_384;

/** A time or seq bound as a safe integer; NaN, infinities and non-numbers mean "no bound". */
function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? Math.trunc(Math.min(Math.max(value, -Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER))
    : undefined;
}

function bounded(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  return String(value).slice(0, textFieldMaxLength);
}

function toEntry(row: AuthAuditRow): AuditEntry {
  const { request_id: requestId, ...fields } = hashedFields(row);
  return { ...fields, requestId, prevHash: row.prev_hash, hash: row.hash };
}

export function createAuditLog(context: StoreContext, chain: AuditChainOptions): AuditLog {
  const { db, now } = context;
  const { key, head } = chain;
  if (key.length < 32) throw new RangeError('@suite/web-auth audit key must be at least 32 bytes');
  const refusals = createRefusalCounter(context, chain.refusalWindowSeconds ?? 60);
  let queue: Promise<unknown> = Promise.resolve();

  // The head is written by one writer at a time, always to the newest committed entry: appends
  // that commit while a head write (with its fsync) is under way share the next one, so the
  // queue of appends never waits for the disk and a burst costs two head writes, not one each.
  let anchoring: Promise<void> | undefined;
  let newest: AuditHead | undefined;
  let anchoredSeq = 0;

  /** Resolves once the head names `row` or a newer entry. */
  function anchor(row: AuthAuditRow): Promise<void> {
    const seq = toNumber(row.seq);
    if (!newest || seq > newest.seq) newest = { seq, mac: row.hash };
    anchoring ??= (async () => {
      try {
        while (newest && newest.seq > anchoredSeq) {
          const next = newest;
          await head.advance(next);
          anchoredSeq = next.seq;
        }
      } finally {
        anchoring = undefined;
      }
    })();
    return anchoring;
  }

  async function commitSerialized(entry: AuditEntryInput): Promise<AuthAuditRow> {
    const detail = boundedCanonicalJson(entry.detail, detailMaxBytes);
    const row = await serializedTransaction(context, 'auth_audit', async (trx) => {
      const last = await trx
        .selectFrom('auth_audit')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      const prevHash = last?.hash ?? genesisHash;
      const fields = {
        id: randomUUID(),
        seq: last ? toNumber(last.seq) + 1 : 1,
        at: now(),
        actor: bounded(entry.actor),
        action: bounded(entry.action) ?? '',
        target: bounded(entry.target),
        outcome: bounded(entry.outcome) ?? '',
        request_id: bounded(entry.requestId),
        client: bounded(entry.client),
        detail,
      };
      const inserted: AuthAuditRow = {
        ...fields,
        prev_hash: prevHash,
        hash: keyedHash(key, prevHash, fields),
      };
      await trx.insertInto('auth_audit').values(inserted).execute();
      return inserted;
    });
    return row;
  }

  return {
    append(entry) {
      const committed = queue.then(() => commitSerialized(entry));
      queue = committed.catch(() => undefined);
      // After the commit: a head never names an entry that is not in the database. A crash in
      // between leaves the head behind, which verification accepts (see audit-head.ts).
      return committed.then(async (row) => {
        await anchor(row);
        return toEntry(row);
      });
    },

    async list(query = {}) {
      const limit = Math.min(
        Math.max(Math.trunc(Number(query.limit ?? auditListDefaultLimit)) || 1, 1),
        auditListMaxLimit,
      );
      let select = db.selectFrom('auth_audit').selectAll();
      for (const column of ['actor', 'action', 'outcome'] as const) {
        const value = query[column];
        if (value === undefined) continue;
        // Stored values are cut at 256 characters, so a longer filter matches nothing.
        if (typeof value !== 'string' || value.length > textFieldMaxLength)
          return { entries: [], nextBefore: null };
        select = select.where(column, '=', value);
      }
      const since = wholeNumber(query.since);
      const until = wholeNumber(query.until);
      const before = wholeNumber(query.before);
      if (since !== undefined) select = select.where('at', '>=', since);
      if (until !== undefined) select = select.where('at', '<', until);
      if (before !== undefined) select = select.where('seq', '<', before);
      const rows = await select.orderBy('seq', 'desc').limit(limit).execute();
      const entries = rows.map(toEntry);
      const last = entries.at(-1);
      return { entries, nextBefore: entries.length === limit && last ? last.seq : null };
    },

    verifyChain(options) {
      return verifyAuditChain(context, key, head, options);
    },

    countRefusal(refusal) {
      return refusals.count(refusal);
    },

    listRefusals(query) {
      return refusals.list(query);
    },

    prune(before) {
      return pruneAuditTrail(context, key, head, refusals, before);
    },
  };
}
