/**
 * @module Visitor counter in Cloudflare D1 (SQLite at the edge): the same table, the same
 * atomic upsert and the same retention rule as the SQL stores, through D1's prepared statements.
 */
import {
  defaultVisitorTable,
  SINGLE_VISIT_RETENTION_MS,
  type VisitorStore,
  visitorTableNamePattern,
} from './visitor-store.js';

/** How often an isolate applies the retention rule (at most, during a visit). */
const PURGE_INTERVAL_MS = 3_600_000;

/** The part of a D1 binding (`env.DB`) this store uses. */
export interface D1Binding {
  prepare(query: string): D1Statement;
  exec(query: string): Promise<unknown>;
}

export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  first<Row = Record<string, unknown>>(): Promise<Row | null>;
}

/**
 * Counts visits in `database` (table `visitor_counts` unless `table` is given), creating the
 * table on first use so a fresh D1 database needs no migration step.
 *
 * @example createD1VisitorStore(env.DB)
 */
export function createD1VisitorStore(
  database: D1Binding,
  table = defaultVisitorTable,
  now: () => number = Date.now,
): VisitorStore {
  if (!visitorTableNamePattern.test(table)) throw new Error(`invalid visitor table name "${table}"`);
  let ready: Promise<unknown> | undefined;
  // Same shape as the kysely migration of the SQL stores, so a dump moves between them.
  const schema = () => {
    ready ??= database
      .exec(
        `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, count INTEGER NOT NULL DEFAULT 0, last_seen INTEGER)`,
      )
      .then(async () => {
        // Tables created before the retention rule get its column.
        const column = await database
          .prepare(`SELECT 1 AS found FROM pragma_table_info('${table}') WHERE name = 'last_seen'`)
          .first();
        if (column === null) await database.exec(`ALTER TABLE ${table} ADD COLUMN last_seen INTEGER`);
      })
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };
  const increment = `INSERT INTO ${table} (key, count, last_seen) VALUES (?1, 1, ?2) ON CONFLICT (key) DO UPDATE SET count = count + 1, last_seen = ?2 RETURNING count`;
  const peek = `SELECT count FROM ${table} WHERE key = ?1`;
  const purge = `DELETE FROM ${table} WHERE count = 1 AND last_seen < ?1 RETURNING 1`;
  let lastPurge = Number.NEGATIVE_INFINITY;
  return {
    async increment(key) {
      await schema();
      const seen = now();
      if (seen - lastPurge >= PURGE_INTERVAL_MS) {
        lastPurge = seen;
        await database
          .prepare(purge)
          .bind(seen - SINGLE_VISIT_RETENTION_MS)
          .first();
      }
      const row = await database.prepare(increment).bind(key, seen).first<{ count: number }>();
      if (row === null) throw new Error('D1 returned no row for the visitor upsert');
      return Number(row.count);
    },
    async peek(key) {
      await schema();
      const row = await database.prepare(peek).bind(key).first<{ count: number }>();
      return row === null ? 0 : Number(row.count);
    },
    async close() {
      // A binding has no connection to release.
    },
  };
}
