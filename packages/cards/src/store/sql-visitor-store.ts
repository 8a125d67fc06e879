/**
 * @module Visitor counter in SQL (SQLite or PostgreSQL through kysely). A visit to an existing
 * counter is one atomic `UPDATE ... RETURNING count`; a new counter is created in a transaction
 * that first charges the usage row against the global budget (taking its lock, so instances
 * sharing the database never pass it together). The retention rule deletes idle small counters
 * and gives their budget back.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { PURGE_BATCH, purgeAtMostHourly } from './purge-schedule.js';
import { migrateVisitorTable, type VisitorDatabase } from './visitor-migrations.js';
import {
  counterBytes,
  resolveVisitorLimits,
  VisitorBudgetError,
  type VisitorStore,
  type VisitorStoreLimits,
  visitorTableNamePattern,
} from './visitor-store.js';

export interface SqlVisitorStoreOptions extends VisitorStoreLimits {
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
  const { budget, retention } = resolveVisitorLimits(options);
  const usage = sql.table(`${table}_usage`);
  await migrateVisitorTable(db, table);

  const countExisting = async (executor: Kysely<VisitorDatabase>, key: string, seen: number) => {
    const row = await executor
      .updateTable(table)
      .set({ count: sql`${sql.ref('count')} + 1`, last_seen: seen })
      .where('key', '=', key)
      .returning('count')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.count);
  };

  const create = async (trx: Transaction<VisitorDatabase>, key: string, seen: number) => {
    const cost = counterBytes(key);
    const charged = await sql`UPDATE ${usage} SET counters = counters + 1, bytes = bytes + ${cost}
      WHERE id = 1 AND counters < ${budget.maxCounters} AND bytes + ${cost} <= ${budget.maxBytes}
      RETURNING counters`.execute(trx);
    if (charged.rows.length === 0) {
      // At the budget: another instance may have created this very key meanwhile.
      const count = await countExisting(trx, key, seen);
      if (count === undefined) throw new VisitorBudgetError();
      return count;
    }
    const row = await trx
      .insertInto(table)
      .values({ key, count: 1, last_seen: seen })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({ count: sql`${sql.ref(`${table}.count`)} + 1`, last_seen: seen }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    // Created meanwhile by another instance: the charge was not ours to make.
    if (count > 1)
      await sql`UPDATE ${usage} SET counters = counters - 1, bytes = bytes - ${cost} WHERE id = 1`.execute(
        trx,
      );
    return count;
  };

  // One batch per transaction, so neither the removed keys in memory nor the usage row's lock
  // (which every new counter waits on) grows with how many counters the rule removes.
  const purgeBatch = (cutoff: number) =>
    db.transaction().execute(async (trx) => {
      // The usage row first, as a creation takes it first: the two never wait on each other.
      await sql`UPDATE ${usage} SET counters = counters WHERE id = 1`.execute(trx);
      const removed = await trx
        .deleteFrom(table)
        // The rule again on the row itself: a visit may have raised its count meanwhile.
        .where('count', '<=', retention.maxCount)
        .where('last_seen', '<', cutoff)
        .where('key', 'in', (eb) =>
          eb
            .selectFrom(table)
            .select('key')
            .where('count', '<=', retention.maxCount)
            .where('last_seen', '<', cutoff)
            .limit(PURGE_BATCH),
        )
        .returning('key')
        .execute();
      if (removed.length === 0) return 0;
      const bytes = removed.reduce((sum, row) => sum + counterBytes(row.key), 0);
      await sql`UPDATE ${usage} SET counters = counters - ${removed.length}, bytes = bytes - ${bytes}
        WHERE id = 1`.execute(trx);
      return removed.length;
    });
  const purge = async () => {
    const cutoff = now() - retention.idleMs;
    while ((await purgeBatch(cutoff)) === PURGE_BATCH);
  };
  await purge();
  const purgeIfDue = purgeAtMostHourly(purge, now);
  return {
    async increment(key) {
      await purgeIfDue();
      const seen = now();
      return (
        (await countExisting(db, key, seen)) ??
        (await db.transaction().execute((trx) => create(trx, key, seen)))
      );
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
