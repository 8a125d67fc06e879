/**
 * @module Copies of the SQLite database (before a migration). The copy holds the same password and
 * session hashes, so nobody may read it who cannot read the database: the file is created with
 * the database's mode in the same `open` that creates it (never a chmod after, which would leave
 * a moment where it is world-readable), and SQLite then writes into that file, keeping its mode.
 */
import { open, stat } from 'node:fs/promises';
import type SqliteDatabase from 'better-sqlite3';

export async function copySqliteDatabase(
  sqlite: SqliteDatabase.Database,
  source: string,
  destination: string,
): Promise<void> {
  const { mode } = await stat(source);
  // `wx`: an existing file (or a planted link) at the destination is refused, never reused.
  const file = await open(destination, 'wx', mode & 0o777);
  await file.close();
  await sqlite.backup(destination);
}
