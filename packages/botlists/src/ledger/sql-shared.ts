/**
 * @module What the SQLite and PostgreSQL ledger stores share: table names and row mapping.
 */
import { BotlistsError } from '../errors.js';
import type { LedgerEntry } from './ledger-store.js';

export const DEFAULT_TABLE_PREFIX = 'botlists_';

/** Table and schema names go into SQL text, so only plain identifiers are accepted. */
export function identifier(name: string, what: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(name))
    throw new BotlistsError(`ledger ${what} "${name}" must be letters, digits and _ (at most 41)`);
  return name;
}

export interface SqlRow {
  list: string;
  vote_key: string;
  user_id: string;
  user_name: string | null;
  weight: number | string;
  at: number | string;
  streak: number | string;
  reminded: number | boolean;
}

/** Columns in insert order; BIGINT comes back from pg as a string, hence the Number() calls. */
export const COLUMNS = 'list, vote_key, user_id, user_name, weight, at, streak, reminded';

export const entryValues = (e: LedgerEntry) => [
  e.list,
  e.key,
  e.userId,
  e.userName,
  e.weight,
  e.at,
  e.streak,
];

export const rowToEntry = (row: SqlRow): LedgerEntry => ({
  list: row.list,
  key: row.vote_key,
  userId: row.user_id,
  userName: row.user_name,
  weight: Number(row.weight),
  at: Number(row.at),
  streak: Number(row.streak),
  reminded: row.reminded === true || row.reminded === 1,
});
