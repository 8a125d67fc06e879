/**
 * @module Ledger store on PostgreSQL through `pg`, an optional peer dependency loaded only here.
 * Safe with several bot processes on one database: the unique (list, vote_key) key decides races.
 */
import { BotlistsError } from '../errors.js';
import {
  type LedgerEntry,
  type LedgerStore,
  type ReminderCutoff,
  sinceMs,
  type VoteQuery,
} from './ledger-store.js';
import {
  COLUMNS,
  DEFAULT_TABLE_PREFIX,
  entryValues,
  identifier,
  rowToEntry,
  type SqlRow,
} from './sql-shared.js';

/** Advisory lock key held while the tables are created (any constant: the creation is short). */
const SCHEMA_LOCK_KEY = 0x626f746c; // "botl"

/** The part of a `pg.Pool` this store uses (the package stays optional, so its types are not imported). */
interface PgPoolLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  end(): Promise<void>;
}

export interface PostgresLedgerOptions {
  /** A `pg` connection string; or pass `pool`. */
  connectionString?: string;
  /** An existing `pg.Pool` (it is not ended by `close()`). */
  pool?: PgPoolLike;
  /** Schema holding the tables (default `public`; created when missing). */
  schema?: string;
  /** Prefix of the two tables (default `botlists_`). */
  tablePrefix?: string;
}

export class PostgresLedgerStore implements LedgerStore {
  private readonly ready: Promise<PgPoolLike>;
  private readonly votesTable: string;
  private readonly optInTable: string;
  private readonly ownsPool: boolean;

  constructor(options: PostgresLedgerOptions) {
    if (!options.pool && !options.connectionString)
      throw new BotlistsError('the PostgreSQL ledger store needs a connectionString or a pool');
    const schema = identifier(options.schema ?? 'public', 'schema');
    const prefix = identifier(options.tablePrefix ?? DEFAULT_TABLE_PREFIX, 'tablePrefix');
    this.votesTable = `"${schema}"."${prefix}votes"`;
    this.optInTable = `"${schema}"."${prefix}reminder_opt_ins"`;
    this.ownsPool = !options.pool;
    this.ready = this.open(options, schema, prefix);
    this.ready.catch(() => {}); // reported by the first call
  }

  private async open(options: PostgresLedgerOptions, schema: string, prefix: string): Promise<PgPoolLike> {
    let pool = options.pool;
    if (!pool) {
      try {
        const pg = (await import('pg')) as unknown as {
          default: { Pool: new (config: { connectionString: string }) => PgPoolLike };
        };
        pool = new pg.default.Pool({ connectionString: options.connectionString as string });
      } catch (error) {
        throw new BotlistsError('the PostgreSQL ledger store needs the pg package: npm install pg', {
          cause: error,
        });
      }
    }
    // One query text: one connection and one transaction, so the advisory lock held to its end
    // makes processes that open a fresh database at once take turns (two concurrent
    // CREATE ... IF NOT EXISTS of one name fail with a unique violation on pg_type).
    await pool.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_KEY});
    CREATE SCHEMA IF NOT EXISTS "${schema}";
    CREATE TABLE IF NOT EXISTS ${this.votesTable} (
      list TEXT NOT NULL, vote_key TEXT NOT NULL, user_id TEXT NOT NULL, user_name TEXT,
      weight INTEGER NOT NULL, at BIGINT NOT NULL, streak INTEGER NOT NULL, reminded BOOLEAN NOT NULL DEFAULT false,
      PRIMARY KEY (list, vote_key));
    CREATE INDEX IF NOT EXISTS "${prefix}votes_user" ON ${this.votesTable} (list, user_id, at);
    CREATE TABLE IF NOT EXISTS ${this.optInTable} (user_id TEXT PRIMARY KEY);`);
    return pool;
  }

  async add(entry: LedgerEntry): Promise<boolean> {
    const result = await (await this.ready).query(
      `INSERT INTO ${this.votesTable} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, false) ON CONFLICT DO NOTHING`,
      entryValues(entry),
    );
    return result.rowCount === 1;
  }

  async latest(list: string, userId: string): Promise<LedgerEntry | null> {
    const { rows } = await (await this.ready).query(
      `SELECT ${COLUMNS} FROM ${this.votesTable} WHERE list = $1 AND user_id = $2 ORDER BY at DESC LIMIT 1`,
      [list, userId],
    );
    return rows[0] ? rowToEntry(rows[0] as SqlRow) : null;
  }

  async query(filter: VoteQuery): Promise<LedgerEntry[]> {
    const since = sinceMs(filter.since);
    const { rows } = await (await this.ready).query(
      `SELECT ${COLUMNS} FROM ${this.votesTable}
       WHERE at >= $1 AND ($2::text IS NULL OR user_id = $2) AND ($3::text IS NULL OR list = $3)
       ORDER BY at, list, vote_key`,
      [Number.isFinite(since) ? since : -Number.MAX_SAFE_INTEGER, filter.userId ?? null, filter.list ?? null],
    );
    return (rows as SqlRow[]).map(rowToEntry);
  }

  async claimReminders(due: readonly ReminderCutoff[]): Promise<LedgerEntry[]> {
    // One statement: a concurrent claim of the same row waits for this one, then sees it reminded.
    const { rows } = await (await this.ready).query(
      `WITH latest AS (
         SELECT l.list AS due_list, l.vote_key AS due_key
         FROM jsonb_to_recordset($1::jsonb) AS due(list text, cutoff bigint)
         CROSS JOIN ${this.optInTable} o
         CROSS JOIN LATERAL (
           SELECT v.list, v.vote_key, v.at FROM ${this.votesTable} v
           WHERE v.list = due.list AND v.user_id = o.user_id ORDER BY v.at DESC LIMIT 1) l
         WHERE l.at <= due.cutoff)
       UPDATE ${this.votesTable} SET reminded = true
       FROM latest WHERE list = due_list AND vote_key = due_key AND NOT reminded
       RETURNING ${COLUMNS}`,
      [JSON.stringify(due)],
    );
    return (rows as SqlRow[]).map(rowToEntry);
  }

  async setOptIn(userId: string, optedIn: boolean): Promise<void> {
    const sql = optedIn
      ? `INSERT INTO ${this.optInTable} (user_id) VALUES ($1) ON CONFLICT DO NOTHING`
      : `DELETE FROM ${this.optInTable} WHERE user_id = $1`;
    await (await this.ready).query(sql, [userId]);
  }

  async optedIn(): Promise<string[]> {
    const { rows } = await (await this.ready).query(
      `SELECT user_id FROM ${this.optInTable} ORDER BY user_id`,
    );
    return (rows as { user_id: string }[]).map((r) => r.user_id);
  }

  async close(): Promise<void> {
    const pool = await this.ready.catch(() => null);
    if (pool && this.ownsPool) await pool.end();
  }
}
