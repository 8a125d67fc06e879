/**
 * @module The newest and oldest sequence numbers of the audit trail, which key the cached audit
 * pages: the newest changes with every append, the oldest when retention prunes. Two indexed
 * lookups per request, compiled once: building and compiling it with kysely cost about as much as
 * running it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

export function auditHeadReader(db: Kysely<Database>): () => Promise<string> {
  // One scalar subquery per end: each reads one index entry (SQLite's min/max shortcut). A single
  // `select max(seq), min(seq)` is outside that shortcut and scans the whole index (50 ms per
  // request at a million entries, against a microsecond).
  const query = db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('auth_audit')
        .select((inner) => inner.fn.max('seq').as('seq'))
        .as('newest'),
      eb
        .selectFrom('auth_audit')
        .select((inner) => inner.fn.min('seq').as('seq'))
        .as('oldest'),
    ])
    .compile();
  return async () => {
    const { rows } = await db.executeQuery(query);
    return `${Number(rows[0]?.newest ?? 0)}-${Number(rows[0]?.oldest ?? 0)}`;
  };
}
