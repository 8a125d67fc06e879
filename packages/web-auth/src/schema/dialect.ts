/**
 * @module What differs between the two supported databases at run time: which one a Kysely
 * instance talks to, and how each reports a unique-constraint violation or a busy database.
 */
import { type Kysely, PostgresAdapter, SqliteAdapter } from 'kysely';

export type SqlDialectName = 'sqlite' | 'postgres';

/** The database behind a Kysely instance; anything other than SQLite or PostgreSQL is refused. */
export function detectDialect(db: Kysely<unknown>): SqlDialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new Error('@suite/web-auth supports SQLite and PostgreSQL; pass `dialect` for a custom adapter');
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** PostgreSQL 23505 or SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** SQLite's "another connection holds the write lock / my snapshot is stale" family. */
export function isBusy(error: unknown): boolean {
  const code = errorCode(error);
  return code?.startsWith('SQLITE_BUSY') === true;
}
