/**
 * @module What every store of the library shares: the typed database handle, its dialect and the
 * injectable clock.
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from './schema/dialect.js';
import type { AuthDatabase } from './schema/tables.js';

export interface StoreContext {
  db: Kysely<AuthDatabase>;
  dialect: SqlDialectName;
  /** Epoch milliseconds. */
  now: () => number;
}
