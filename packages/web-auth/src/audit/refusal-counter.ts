/**
 * @module Refused and unauthenticated requests, counted instead of chained: one row per kind and
 * time window in `auth_audit_refusals` (the count, the time of the latest, and the first request
 * as a sample), so a flood of refusals grows the database by one row per kind and window, not one
 * per request. Counts gather in memory and are written at most once a second (an upsert adding
 * each kind's count), so a flood costs one write per kind a second, not one per request; `list`
 * and `prune` write what is pending first, and a timer writes the rest within a second. The counts
 * are statistics, not evidence: they are not part of the hash chain.
 */
import { sql } from 'kysely';
import type { StoreContext } from '../context.js';
import { toNumber } from '../schema/tables.js';
import { boundedCanonicalJson, type JsonValue } from './canonical-json.js';

export interface AuditRefusalInput {
  /** A bounded set chosen by the product, e.g. `POST /auth/logout denied AUTH_REQUIRED`. */
  kind: string;
  /** Kept for the first request of each window; never put secrets here. */
  sample?: { [key: string]: JsonValue };
}

export interface AuditRefusal {
  kind: string;
  /** Epoch milliseconds. */
  windowStart: number;
  windowSeconds: number;
  count: number;
  lastAt: number;
  sample: { [key: string]: JsonValue };
}

export interface AuditRefusalQuery {
  /** Epoch milliseconds: windows that end after it. */
  since?: number;
  /** 1-500, default 100. */
  limit?: number;
}

const kindMaxLength = 256;
const sampleMaxBytes = 4_096;

/** How long counts may gather in memory before they are written. */
const flushIntervalMs = 1_000;
/** Pending kind-and-window counts that force a write at once (kinds are a product's bounded set). */
const maxPending = 1_000;

interface PendingCount {
  kind: string;
  windowStart: number;
  count: number;
  lastAt: number;
  sample: string;
}

export function createRefusalCounter(context: StoreContext, windowSeconds: number) {
  const { db, now } = context;
  const windowMs = windowSeconds * 1_000;
  const pending = new Map<string, PendingCount>();
  let lastFlush = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function write(batch: PendingCount[]): Promise<void> {
    for (const entry of batch)
      await db
        .insertInto('auth_audit_refusals')
        .values({
          kind: entry.kind,
          window_start: entry.windowStart,
          count: entry.count,
          last_at: entry.lastAt,
          sample: entry.sample,
        })
        .onConflict((conflict) =>
          conflict.columns(['kind', 'window_start']).doUpdateSet({
            count: sql`auth_audit_refusals.count + ${entry.count}`,
            last_at: entry.lastAt,
          }),
        )
        .execute();
  }

  /** Writes every pending count (after any write under way); a failed batch stays pending. */
  function flush(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    lastFlush = now();
    const batch = [...pending.values()];
    pending.clear();
    const written = flushing.then(() => write(batch));
    flushing = written.catch(() => {
      for (const entry of batch) {
        const key = `${entry.windowStart}\n${entry.kind}`;
        const later = pending.get(key);
        pending.set(
          key,
          later ? { ...entry, count: entry.count + later.count, lastAt: later.lastAt } : entry,
        );
      }
    });
    return written;
  }

  return {
    count(refusal: AuditRefusalInput): Promise<void> {
      const at = now();
      const kind = String(refusal.kind).slice(0, kindMaxLength);
      const windowStart = at - (at % windowMs);
      const key = `${windowStart}\n${kind}`;
      const counted = pending.get(key);
      if (counted) {
        counted.count++;
        counted.lastAt = at;
      } else
        pending.set(key, {
          kind,
          windowStart,
          count: 1,
          lastAt: at,
          sample: boundedCanonicalJson(refusal.sample, sampleMaxBytes),
        });
      if (at - lastFlush >= flushIntervalMs || pending.size >= maxPending) return flush();
      if (timer === undefined) {
        // Unref'd: a process that exits within the second loses at most that second's counts.
        timer = setTimeout(() => void flush().catch(() => undefined), flushIntervalMs);
        timer.unref();
      }
      return Promise.resolve();
    },

    async list(query: AuditRefusalQuery = {}): Promise<AuditRefusal[]> {
      await flush();
      const limit = Math.min(Math.max(Math.trunc(Number(query.limit ?? 100)) || 1, 1), 500);
      let select = db.selectFrom('auth_audit_refusals').selectAll();
      if (typeof query.since === 'number' && Number.isFinite(query.since))
        select = select.where('window_start', '>', Math.trunc(query.since) - windowMs);
      const rows = await select.orderBy('window_start', 'desc').orderBy('kind').limit(limit).execute();
      return rows.map((row) => ({
        kind: row.kind,
        windowStart: toNumber(row.window_start),
        windowSeconds,
        count: toNumber(row.count),
        lastAt: toNumber(row.last_at),
        sample: JSON.parse(row.sample) as { [key: string]: JsonValue },
      }));
    },

    /** Deletes the windows that started before `before` (epoch milliseconds); returns how many. */
    async prune(before: number): Promise<number> {
      await flush();
      const result = await db
        .deleteFrom('auth_audit_refusals')
        .where('window_start', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RefusalCounter = ReturnType<typeof createRefusalCounter>;
