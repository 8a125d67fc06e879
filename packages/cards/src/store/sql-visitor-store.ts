/**
 * @module Visitor counter in SQL (SQLite or PostgreSQL through kysely): one atomic upsert per
 * visit (`INSERT ... ON CONFLICT DO UPDATE SET count = count + 1 RETURNING count`).
 */
import { type Kysely, sql } from 'kysely';
import { migrateVisitorTable, type VisitorDatabase } from './visitor-migrations.js';
import { type VisitorStore, visitorTableNamePattern } from './visitor-store.js';

export async function createSqlVisitorStore(
  db: Kysely<VisitorDatabase>,
  table: string,
): Promise<VisitorStore> {
  if (!visitorTableNamePattern.test(table)) throw new Error(`invalid visitor table name "${table}"`);
  await migrateVisitorTable(db, table);
  return {
    async increment(key) {
      const row = await db
        .insertInto(table)
        .values({ key, count: 1 })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({ count: sql`${sql.ref(`${table}.count`)} + 1` }),
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
