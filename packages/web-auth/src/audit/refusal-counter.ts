/**
 * @module Refused and unauthenticated requests, counted instead of chained: one row per kind and
 * time window in `auth_audit_refusals` (the count, the time of the latest, and the first request
 * as a sample), so a flood of refusals grows the database by one row per kind and window, not one
 * per request. The counts are statistics, not evidence: they are not part of the hash chain.
 */
import { sql } from 'kysely';
import type { StoreContext } from '../context.js';
import { toNumber } from '../schema/tables.js';
import { canonicalJson, type JsonValue } from './canonical-json.js';

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

function sampleText(sample: AuditRefusalInput['sample']): string {
  let text: string;
  try {
    text = canonicalJson(JSON.parse(JSON.stringify(sample ?? {})));
  } catch {
    return canonicalJson({ unserialisable: true });
  }
  return text.length <= sampleMaxBytes ? text : canonicalJson({ truncated: true, length: text.length });
}

export function createRefusalCounter(context: StoreContext, windowSeconds: number) {
  const { db, now } = context;
  const windowMs = windowSeconds * 1_000;
  return {
    async count(refusal: AuditRefusalInput): Promise<void> {
      const at = now();
      await db
        .insertInto('auth_audit_refusals')
        .values({
          kind: String(refusal.kind).slice(0, kindMaxLength),
          window_start: at - (at % windowMs),
          count: 1,
          last_at: at,
          sample: sampleText(refusal.sample),
        })
        .onConflict((conflict) =>
          conflict.columns(['kind', 'window_start']).doUpdateSet({
            count: sql`auth_audit_refusals.count + 1`,
            last_at: at,
          }),
        )
        .execute();
    },

    async list(query: AuditRefusalQuery = {}): Promise<AuditRefusal[]> {
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
      const result = await db
        .deleteFrom('auth_audit_refusals')
        .where('window_start', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RefusalCounter = ReturnType<typeof createRefusalCounter>;
