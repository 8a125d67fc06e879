/**
 * @module Schema of the SQL visitor counter (kysely Migrator), shared by SQLite and PostgreSQL.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

/** One row per counter key. */
export interface VisitorRow {
  key: string;
  count: number | string | bigint;
  /** Epoch ms of the last visit (null for rows counted before it was recorded: kept for ever). */
  last_seen: number | string | bigint | null;
}

export type VisitorDatabase = Record<string, VisitorRow>;

function migrations(table: string): Record<string, Migration> {
  return {
    '2026-11-22-create-visitor-counts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable(table)
          .ifNotExists()
          .addColumn('key', 'text', (column) => column.primaryKey())
          .addColumn('count', 'bigint', (column) => column.notNull().defaultTo(0))
          .execute();
      },
    },
    '2026-11-24-visitor-last-seen': {
      // For the retention rule: a counter visited once and never again is removed after a while.
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable(table).addColumn('last_seen', 'bigint').execute();
        await db.schema.createIndex(`${table}_last_seen`).on(table).column('last_seen').execute();
      },
    },
  };
}

/** Brings the schema up to date; safe to run from several instances at once. */
export async function migrateVisitorTable(db: Kysely<VisitorDatabase>, table: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(table) };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: `${table}_migrations`,
    migrationLockTableName: `${table}_migrations_lock`,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
