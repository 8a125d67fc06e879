/**
 * @module Opens the daemon's SQLite file (WAL, foreign keys, busy timeout) in the data dir and
 * brings its schema up to date: web-auth's `auth_*` tables and the daemon's own.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { withWebAuthMigrations } from '@suite/web-auth';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { workspacedMigrations } from './migrations.js';
import type { WorkspacedTables } from './schema.js';

export type WorkspacedDb = Kysely<WorkspacedTables>;

interface OpenedDatabase {
  db: WorkspacedDb;
  file: string;
  close: () => Promise<void>;
}

export async function openDatabase(dataDir: string): Promise<OpenedDatabase> {
  // 0700: the folder holds the session table and the password hashes.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'workspaced.db');
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<WorkspacedTables>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Names sort `web-auth-…` before `workspaced-…`, the order they must first run in; a later
  // web-auth migration sorts before ours yet runs after them, hence unordered migrations.
  const migrator = new Migrator({
    db,
    provider: withWebAuthMigrations(workspacedMigrations),
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return { db, file, close: () => db.destroy() };
}
