/**
 * @module The newest sequence number of the audit trail (0 when empty), which keys the cached
 * audit pages. One indexed lookup per request, compiled once: building and compiling it with
 * kysely cost about as much as running it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

export function auditHeadReader(db: Kysely<Database>): () => Promise<number> {
  // max() rather than ORDER BY ... LIMIT 1: both read one index entry, but SQLite runs max() in
  // a third of the time (its min/max shortcut skips the sorter set-up).
  const query = db
    .selectFrom('auth_audit')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .compile();
  return async () => {
    const { rows } = await db.executeQuery(query);
    return Number(rows[0]?.seq ?? 0);
  };
}
