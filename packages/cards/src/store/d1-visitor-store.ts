/**
 * @module Visitor counter in Cloudflare D1 (SQLite at the edge): the same table, the same
 * global budget and retention rule as the SQL stores, through D1's prepared statements. D1 has
 * no interactive transaction, so triggers keep the usage row in step with the table and one
 * upsert statement checks the budget (a statement is atomic: D1 runs one writer).
 */
import { purgeAtMostHourly } from './purge-schedule.js';
import {
  COUNTER_OVERHEAD_BYTES,
  counterBytes,
  defaultVisitorTable,
  resolveVisitorLimits,
  VisitorBudgetError,
  type VisitorStore,
  type VisitorStoreLimits,
  visitorTableNamePattern,
} from './visitor-store.js';

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
  limits: VisitorStoreLimits = {},
): VisitorStore {
  if (!visitorTableNamePattern.test(table)) throw new Error(`invalid visitor table name "${table}"`);
  const { budget, retention } = resolveVisitorLimits(limits);
  const usage = `${table}_usage`;
  const keyBytes = (row: string) => `length(CAST(${row}.key AS BLOB)) + ${COUNTER_OVERHEAD_BYTES}`;
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
        for (const statement of [
          `CREATE TABLE IF NOT EXISTS ${usage} (id INTEGER PRIMARY KEY, counters INTEGER NOT NULL, bytes INTEGER NOT NULL)`,
          `INSERT OR IGNORE INTO ${usage} (id, counters, bytes) SELECT 1, count(*), coalesce(sum(${keyBytes(table)}), 0) FROM ${table}`,
          `CREATE TRIGGER IF NOT EXISTS ${table}_usage_insert AFTER INSERT ON ${table} BEGIN UPDATE ${usage} SET counters = counters + 1, bytes = bytes + ${keyBytes('NEW')} WHERE id = 1; END`,
          `CREATE TRIGGER IF NOT EXISTS ${table}_usage_delete AFTER DELETE ON ${table} BEGIN UPDATE ${usage} SET counters = counters - 1, bytes = bytes - ${keyBytes('OLD')} WHERE id = 1; END`,
        ])
          await database.exec(statement);
      })
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };
  // Inserts only when the key exists (then it is an update) or the budget has room for it.
  const increment = `INSERT INTO ${table} (key, count, last_seen) SELECT ?1, 1, ?2 WHERE EXISTS (SELECT 1 FROM ${table} WHERE key = ?1) OR (SELECT counters < ?3 AND bytes + ?4 <= ?5 FROM ${usage} WHERE id = 1) ON CONFLICT (key) DO UPDATE SET count = count + 1, last_seen = ?2 RETURNING count`;
  const peek = `SELECT count FROM ${table} WHERE key = ?1`;
  const purge = `DELETE FROM ${table} WHERE count <= ?2 AND last_seen < ?1 RETURNING 1`;
  // Each isolate applies the rule at its first visit, then at most hourly.
  const purgeIfDue = purgeAtMostHourly(
    () =>
      database
        .prepare(purge)
        .bind(now() - retention.idleMs, retention.maxCount)
        .first(),
    now,
    Number.NEGATIVE_INFINITY,
  );
  return {
    async increment(key) {
      await schema();
      await purgeIfDue();
      const seen = now();
      const row = await database
        .prepare(increment)
        .bind(key, seen, budget.maxCounters, counterBytes(key), budget.maxBytes)
        .first<{ count: number }>();
      if (row === null) throw new VisitorBudgetError();
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
