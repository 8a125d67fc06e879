/**
 * @module Opens the configured database as a kysely instance: an embedded SQLite file (WAL,
 * foreign keys, busy timeout) or a PostgreSQL pool.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SqlDialectName } from '@suite/web-auth';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/schema.js';
import { withStatementCache } from './statement-cache.js';

export interface OpenedDatabase<Tables> {
  db: Kysely<Tables>;
  dialect: SqlDialectName;
  /** Where the data lives, without credentials (`/var/lib/.../firewarden.db` or `postgres://host/db`). */
  location: string;
  /** The SQLite handle (online backups before migrations); null on PostgreSQL. */
  sqlite: SqliteDatabase.Database | null;
}

interface OpenOptions {
  /** Create the SQLite file (and its folder) when missing; false opens it read-only (diagnostics). */
  create?: boolean;
}

export function openDatabase<Tables>(
  database: Config['database'],
  { create = true }: OpenOptions = {},
): OpenedDatabase<Tables> {
  if (database.driver === 'postgres') {
    const dsn = database.postgres_dsn ?? '';
    const pool = new pg.Pool({ connectionString: dsn, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    return {
      db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      location: redactDsn(dsn),
      sqlite: null,
    };
  }
  if (create) mkdirSync(path.dirname(database.sqlite_path), { recursive: true, mode: 0o750 });
  const isNew = create && !existsSync(database.sqlite_path);
  // Diagnostics open read-only: they must not create or change anything.
  const sqlite = new SqliteDatabase(database.sqlite_path, { fileMustExist: !create, readonly: !create });
  sqlite.pragma('busy_timeout = 5000');
  // Password and session hashes live here: only the service account reads the file (SQLite gives
  // its -wal and -shm files the same mode).
  if (isNew) chmodSync(database.sqlite_path, 0o600);
  if (create) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
  }
  return {
    db: new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
    location: database.sqlite_path,
    sqlite,
  };
}

/** `postgres://user:secret@host:5432/db?x` -> `postgres://host:5432/db`: never show credentials. */
function redactDsn(dsn: string): string {
  try {
    const url = new URL(dsn);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'postgres (unparsable DSN)';
  }
}
