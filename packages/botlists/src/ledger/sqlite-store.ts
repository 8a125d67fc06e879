/**
 * @module Ledger store on SQLite through `better-sqlite3`, an optional peer dependency loaded only here.
 */
import { BotlistsError } from '../errors.js';
import { type LedgerEntry, type LedgerStore, sinceMs, type VoteQuery } from './ledger-store.js';
import {
  COLUMNS,
  DEFAULT_TABLE_PREFIX,
  entryValues,
  identifier,
  rowToEntry,
  type SqlRow,
} from './sql-shared.js';

/** The part of better-sqlite3 this store uses (the package stays optional, so its types are not imported). */
interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

export interface SqliteLedgerOptions {
  /** Database file (`:memory:` for a throw-away one). */
  filename: string;
  /** Prefix of the two tables (default `botlists_`). */
  tablePrefix?: string;
}

export class SqliteLedgerStore implements LedgerStore {
  private readonly ready: Promise<SqliteDatabase>;
  private readonly votesTable: string;
  private readonly optInTable: string;

  constructor(options: SqliteLedgerOptions) {
    const prefix = identifier(options.tablePrefix ?? DEFAULT_TABLE_PREFIX, 'tablePrefix');
    this.votesTable = `${prefix}votes`;
    this.optInTable = `${prefix}reminder_opt_ins`;
    this.ready = this.open(options.filename);
    this.ready.catch(() => {}); // reported by the first call
  }

  private async open(filename: string): Promise<SqliteDatabase> {
    let Database: new (file: string) => SqliteDatabase;
    try {
      Database = ((await import('better-sqlite3')) as unknown as { default: typeof Database }).default;
    } catch (error) {
      throw new BotlistsError(
        'the SQLite ledger store needs the better-sqlite3 package: npm install better-sqlite3',
        {
          cause: error,
        },
      );
    }
    const db = new Database(filename);
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.votesTable} (
      list TEXT NOT NULL, vote_key TEXT NOT NULL, user_id TEXT NOT NULL, user_name TEXT,
      weight INTEGER NOT NULL, at INTEGER NOT NULL, streak INTEGER NOT NULL, reminded INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (list, vote_key));
    CREATE INDEX IF NOT EXISTS ${this.votesTable}_user ON ${this.votesTable} (list, user_id, at);
    CREATE INDEX IF NOT EXISTS ${this.votesTable}_at ON ${this.votesTable} (at);
    CREATE TABLE IF NOT EXISTS ${this.optInTable} (user_id TEXT PRIMARY KEY);`);
    return db;
  }

  async add(entry: LedgerEntry): Promise<boolean> {
    const db = await this.ready;
    const result = db
      .prepare(`INSERT OR IGNORE INTO ${this.votesTable} (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`)
      .run(...entryValues(entry));
    return result.changes === 1;
  }

  async latest(list: string, userId: string): Promise<LedgerEntry | null> {
    const db = await this.ready;
    const row = db
      .prepare(
        `SELECT ${COLUMNS} FROM ${this.votesTable} WHERE list = ? AND user_id = ? ORDER BY at DESC LIMIT 1`,
      )
      .get(list, userId) as SqlRow | undefined;
    return row ? rowToEntry(row) : null;
  }

  async query(filter: VoteQuery): Promise<LedgerEntry[]> {
    const db = await this.ready;
    const since = sinceMs(filter.since);
    const rows = db
      .prepare(
        `SELECT ${COLUMNS} FROM ${this.votesTable} WHERE at >= ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR list = ?) ORDER BY at, rowid`,
      )
      .all(
        Number.isFinite(since) ? since : -Number.MAX_SAFE_INTEGER,
        filter.userId ?? null,
        filter.userId ?? null,
        filter.list ?? null,
        filter.list ?? null,
      ) as SqlRow[];
    return rows.map(rowToEntry);
  }

  async markReminded(list: string, key: string): Promise<void> {
    (await this.ready)
      .prepare(`UPDATE ${this.votesTable} SET reminded = 1 WHERE list = ? AND vote_key = ?`)
      .run(list, key);
  }

  async setOptIn(userId: string, optedIn: boolean): Promise<void> {
    const db = await this.ready;
    const sql = optedIn
      ? `INSERT OR IGNORE INTO ${this.optInTable} (user_id) VALUES (?)`
      : `DELETE FROM ${this.optInTable} WHERE user_id = ?`;
    db.prepare(sql).run(userId);
  }

  async optedIn(): Promise<string[]> {
    const rows = (await this.ready)
      .prepare(`SELECT user_id FROM ${this.optInTable} ORDER BY user_id`)
      .all() as {
      user_id: string;
    }[];
    return rows.map((r) => r.user_id);
  }

  async close(): Promise<void> {
    (await this.ready.catch(() => null))?.close();
  }
}
