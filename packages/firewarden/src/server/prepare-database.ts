/**
 * @module Brings the database to the schema this version needs before `serve` accepts requests,
 * when that is safe: pending migrations are applied (an existing SQLite file is first copied to
 * `<file>.before-migrate-<time>`, with the file's own mode), a database migrated by a newer version is refused.
 */
import type { Config } from '../config/schema.js';
import { copySqliteDatabase } from '../store/database-copy.js';
import { MigrationError, migrateToLatest, migrationStatus } from '../store/migrate.js';
import type { OpenedDatabase } from '../store/open-database.js';
import { migrationSets } from './migration-sets.js';

export interface PreparedDatabase {
  applied: string[];
  backup: string | null;
}

export async function prepareDatabase<Tables>(
  opened: OpenedDatabase<Tables>,
  database: Config['database'],
  now: () => number,
): Promise<PreparedDatabase> {
  const sets = migrationSets(opened.dialect);
  const statuses = await migrationStatus(opened.db as never, sets);
  const unknown = statuses.flatMap((status) => status.unknown.map((name) => `${status.owner}/${name}`));
  if (unknown.length > 0) {
    throw new MigrationError(
      `the database was migrated by a newer firewarden (${unknown.join(', ')}); run that version or restore a backup`,
    );
  }
  const pending = statuses.flatMap((status) => status.pending);
  if (pending.length === 0) return { applied: [], backup: null };
  if (!database.migrate_on_start) {
    throw new MigrationError(
      `${pending.length} pending migration(s) and database.migrate_on_start is false: run \`firewarden db migrate\``,
    );
  }
  const hasData = statuses.some((status) => status.applied.length > 0);
  let backup: string | null = null;
  if (opened.sqlite && hasData) {
    backup = `${opened.location}.before-migrate-${new Date(now()).toISOString().replaceAll(':', '-')}`;
    await copySqliteDatabase(opened.sqlite, opened.location, backup);
  }
  const results = await migrateToLatest(opened.db as never, sets);
  return { applied: results.map((result) => result.migrationName), backup };
}
