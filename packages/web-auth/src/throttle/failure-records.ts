/**
 * @module Failed sign-ins counted in `auth_lockouts`, one row per key, so every process on the
 * database sees the same counts, a restart forgets none, and an administrator's command can clear
 * them. A row counts the failures of one window: `failures` since `created_at`, until
 * `locked_until`. The failure that reaches the threshold pushes `locked_until` to the end of the
 * lock; a row whose `locked_until` has passed counts as empty and restarts at the next failure.
 */
import { sql } from 'kysely';
import type { StoreContext } from '../context.js';
import { toNumber } from '../schema/tables.js';

interface FailureRecord {
  failures: number;
  /** Epoch milliseconds at which the record stops counting (end of its window or of its lock). */
  until: number;
}

interface FailureWindow {
  /** Failures counted together; default 900 s. */
  windowSeconds: number;
  /** How long a record stays once it reaches its threshold; default 900 s. */
  lockSeconds: number;
}

/** A threshold no count reaches (the largest 32-bit integer: PostgreSQL compares it to an `integer`). */
export const neverLocks = 2_147_483_647;

export function createFailureRecords(context: StoreContext, window: FailureWindow) {
  const { db, now } = context;

  return {
    /** The live records among `keys`, by key. */
    async read(keys: readonly string[]): Promise<Map<string, FailureRecord>> {
      const rows = await db
        .selectFrom('auth_lockouts')
        .select(['key', 'failures', 'locked_until'])
        .where('key', 'in', [...keys])
        .where('locked_until', '>', now())
        .execute();
      return new Map(
        rows.map((row) => [row.key, { failures: toNumber(row.failures), until: toNumber(row.locked_until) }]),
      );
    },

    /** Counts one failure for `key` in one statement (atomic across processes). */
    async count(key: string, threshold: number): Promise<void> {
      const at = now();
      const windowEnd = at + window.windowSeconds * 1000;
      const lockEnd = at + window.lockSeconds * 1000;
      const expired = sql<boolean>`auth_lockouts.locked_until <= ${at}`;
      const reaches = sql<boolean>`auth_lockouts.failures + 1 >= ${threshold}`;
      await db
        .insertInto('auth_lockouts')
        .values({ key, failures: 1, created_at: at, locked_until: threshold <= 1 ? lockEnd : windowEnd })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            failures: sql`CASE WHEN ${expired} THEN 1 ELSE auth_lockouts.failures + 1 END`,
            created_at: sql`CASE WHEN ${expired} THEN ${at} ELSE auth_lockouts.created_at END`,
            locked_until: sql`CASE WHEN ${expired} THEN ${threshold <= 1 ? lockEnd : windowEnd}
              WHEN ${reaches} AND auth_lockouts.locked_until < ${lockEnd} THEN ${lockEnd}
              ELSE auth_lockouts.locked_until END`,
          }),
        )
        .execute();
    },

    async remove(key: string): Promise<void> {
      await db.deleteFrom('auth_lockouts').where('key', '=', key).execute();
    },

    /** Deletes every record whose key starts with `prefix` (compared as text: no LIKE wildcards). */
    async removePrefixed(prefix: string): Promise<void> {
      await db
        .deleteFrom('auth_lockouts')
        .where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
        .execute();
    },

    async purgeExpired(): Promise<number> {
      const result = await db
        .deleteFrom('auth_lockouts')
        .where('locked_until', '<=', now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
