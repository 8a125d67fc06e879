/**
 * @module Ledger store on SQLite through `better-sqlite3`, an optional peer dependency loaded only here.
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

/** Every statement the store runs, prepared once when the database opens. */
interface Statements {
  add: SqliteStatement;
  latest: SqliteStatement;
  query: SqliteStatement;
  claimReminders: SqliteStatement;
  optIn: SqliteStatement;
  optOut: SqliteStatement;
  optedIn: SqliteStatement;
}

interface Opened {
  db: SqliteDatabase;
  sql: Statements;
}

export class SqliteLedgerStore implements LedgerStore {
  private readonly ready: Promise<Opened>;

  constructor(options: SqliteLedgerOptions) {
    const prefix = identifier(options.tablePrefix ?? DEFAULT_TABLE_PREFIX, 'tablePrefix');
    this.ready = this.open(options.filename, prefix);
    this.ready.catch(() => {}); // reported by the first call
  }

  private async open(filename: string, prefix: string): Promise<Opened> {
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
    const votes = `${prefix}votes`;
    const optIns = `${prefix}reminder_opt_ins`;
    const db = new Database(filename);
    db.exec(`CREATE TABLE IF NOT EXISTS ${votes} (
      list TEXT NOT NULL, vote_key TEXT NOT NULL, user_id TEXT NOT NULL, user_name TEXT,
      weight INTEGER NOT NULL, at INTEGER NOT NULL, streak INTEGER NOT NULL, reminded INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (list, vote_key));
    CREATE INDEX IF NOT EXISTS ${votes}_user ON ${votes} (list, user_id, at);
    CREATE INDEX IF NOT EXISTS ${votes}_at ON ${votes} (at);
    CREATE TABLE IF NOT EXISTS ${optIns} (user_id TEXT PRIMARY KEY);`);
    const sql: Statements = {
      add: db.prepare(`INSERT OR IGNORE INTO ${votes} (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`),
      latest: db.prepare(
        `SELECT ${COLUMNS} FROM ${votes} WHERE list = ? AND user_id = ? ORDER BY at DESC LIMIT 1`,
      ),
      query: db.prepare(
        `SELECT ${COLUMNS} FROM ${votes} WHERE at >= ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR list = ?) ORDER BY at, rowid`,
      ),
      // The cut-offs travel as one JSON parameter, so one statement serves any number of lists; each
      // opted-in user's latest vote per list is one step down the (list, user_id, at) index.
      claimReminders: db.prepare(`WITH due AS (
          SELECT json_extract(value, '$.list') AS list, json_extract(value, '$.cutoff') AS cutoff FROM json_each(?)),
        latest AS (
          SELECT due.cutoff, (SELECT v.rowid FROM ${votes} v WHERE v.list = due.list AND v.user_id = o.user_id
            ORDER BY v.at DESC LIMIT 1) AS id
          FROM due CROSS JOIN ${optIns} o)
        UPDATE ${votes} SET reminded = 1
        WHERE reminded = 0 AND rowid IN (
          SELECT latest.id FROM latest JOIN ${votes} x ON x.rowid = latest.id WHERE x.at <= latest.cutoff)
        RETURNING ${COLUMNS}`),
      optIn: db.prepare(`INSERT OR IGNORE INTO ${optIns} (user_id) VALUES (?)`),
      optOut: db.prepare(`DELETE FROM ${optIns} WHERE user_id = ?`),
      optedIn: db.prepare(`SELECT user_id FROM ${optIns} ORDER BY user_id`),
    };
    return { db, sql };
  }

  async add(entry: LedgerEntry): Promise<boolean> {
    const { sql } = await this.ready;
    return sql.add.run(...entryValues(entry)).changes === 1;
  }

  async latest(list: string, userId: string): Promise<LedgerEntry | null> {
    const { sql } = await this.ready;
    const row = sql.latest.get(list, userId) as SqlRow | undefined;
    return row ? rowToEntry(row) : null;
  }

  async query(filter: VoteQuery): Promise<LedgerEntry[]> {
    const { sql } = await this.ready;
    const since = sinceMs(filter.since);
    const rows = sql.query.all(
      Number.isFinite(since) ? since : -Number.MAX_SAFE_INTEGER,
      filter.userId ?? null,
      filter.userId ?? null,
      filter.list ?? null,
      filter.list ?? null,
    ) as SqlRow[];
    return rows.map(rowToEntry);
  }

  async claimReminders(due: readonly ReminderCutoff[]): Promise<LedgerEntry[]> {
    const { sql } = await this.ready;
    return (sql.claimReminders.all(JSON.stringify(due)) as SqlRow[]).map(rowToEntry);
  }

  async setOptIn(userId: string, optedIn: boolean): Promise<void> {
    const { sql } = await this.ready;
    (optedIn ? sql.optIn : sql.optOut).run(userId);
  }

  async optedIn(): Promise<string[]> {
    const rows = (await this.ready).sql.optedIn.all() as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  async close(): Promise<void> {
    (await this.ready.catch(() => null))?.db.close();
  }
}
