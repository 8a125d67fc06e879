/**
 * @module The newest sequence number of the audit trail (0 when empty), which keys the cached
 * audit pages. One indexed lookup per request, compiled once: building and compiling it with
 * kysely cost about as much as running it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

export function auditHeadReader(db: Kysely<Database>): () => Promise<number> {
  const query = db.selectFrom('auth_audit').select('seq').orderBy('seq', 'desc').limit(1).compile();
  return async () => {
    const { rows } = await db.executeQuery(query);
    return rows[0] ? Number(rows[0].seq) : 0;
  };
}
