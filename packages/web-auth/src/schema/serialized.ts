/**
 * @module Runs a read-then-write transaction so that concurrent writers never both act on the same
 * read: on PostgreSQL under a transaction-level advisory lock named after the table and schema
 * (held until commit, across every process); on SQLite under the database write lock, retrying
 * when another connection wrote first (stale snapshot, busy, or a unique key taken meanwhile).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { StoreContext } from '../context.js';
import { isBusy, isUniqueViolation } from './dialect.js';
import type { AuthDatabase } from './tables.js';

const maxAttempts = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function serializedTransaction<Result>(
  context: StoreContext,
  lockName: keyof AuthDatabase,
  work: (trx: Transaction<AuthDatabase>) => Promise<Result>,
): Promise<Result> {
  const db: Kysely<AuthDatabase> = context.db;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        if (context.dialect === 'postgres') {
          await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${`.${lockName}`}))`.execute(
            trx,
          );
        }
        return work(trx);
      });
    } catch (error) {
      if (attempt >= maxAttempts || !(isBusy(error) || isUniqueViolation(error))) throw error;
      await pause(Math.random() * 10 * attempt);
    }
  }
}
