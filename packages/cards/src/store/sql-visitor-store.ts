/**
 * @module Visitor counter in SQL (SQLite or PostgreSQL through kysely): one atomic upsert per
 * visit (`INSERT ... ON CONFLICT DO UPDATE SET count = count + 1 RETURNING count`), and the
 * retention rule: single-visit counters idle for `SINGLE_VISIT_RETENTION_MS` are deleted.
 */
import { type Kysely, sql } from 'kysely';
import { migrateVisitorTable, type VisitorDatabase } from './visitor-migrations.js';
import { SINGLE_VISIT_RETENTION_MS, type VisitorStore, visitorTableNamePattern } from './visitor-store.js';

/** How often the retention rule runs (on open, then at most this often, during a visit). */
const PURGE_INTERVAL_MS = 3_600_000;

export interface SqlVisitorStoreOptions {
  /** Clock for `last_seen` and the retention rule; default `Date.now`. */
  now?: () => number;
}

export async function createSqlVisitorStore(
  db: Kysely<VisitorDatabase>,
  table: string,
  options: SqlVisitorStoreOptions = {},
): Promise<VisitorStore> {
  if (!visitorTableNamePattern.test(table)) throw new Error(`invalid visitor table name "${table}"`);
  const now = options.now ?? Date.now;
  await migrateVisitorTable(db, table);
  const purge = () =>
    db
      .deleteFrom(table)
      .where('count', '=', 1)
      .where('last_seen', '<', now() - SINGLE_VISIT_RETENTION_MS)
      .execute();
  await purge();
  let lastPurge = now();
  return {
    async increment(key) {
      const seen = now();
      if (seen - lastPurge >= PURGE_INTERVAL_MS) {
        lastPurge = seen;
        await purge();
      }
      const row = await db
        .insertInto(table)
        .values({ key, count: 1, last_seen: seen })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet({ count: sql`${sql.ref(`${table}.count`)} + 1`, last_seen: seen }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async peek(key) {
      const row = await db.selectFrom(table).select('count').where('key', '=', key).executeTakeFirst();
      return row ? Number(row.count) : 0;
    },
    async close() {
      await db.destroy();
    },
  };
}
