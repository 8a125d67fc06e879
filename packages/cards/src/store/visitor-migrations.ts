/**
 * @module Schema of the SQL visitor counter (kysely Migrator), shared by SQLite and PostgreSQL.
 */
import { migrateDespiteDroppedSchemas } from '@suite/server-kit';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { COUNTER_OVERHEAD_BYTES } from './visitor-store.js';

/** One row per counter key. */
interface VisitorRow {
  key: string;
  count: number | string | bigint;
  /** Epoch ms of the last visit (null for rows counted before it was recorded: kept for ever). */
  last_seen: number | string | bigint | null;
}

/** The single row (`id` 1) of `<table>_usage`: what the counters cost against the budget. */
interface VisitorUsageRow {
  id: number;
  counters: number | string | bigint;
  bytes: number | string | bigint;
}

export type VisitorDatabase = Record<string, VisitorRow> & Record<`${string}_usage`, VisitorUsageRow>;

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
    '2026-11-28-visitor-usage': {
      // The global budget: one row kept in step with the table, so a new counter checks it in
      // constant time and under the row's lock (PostgreSQL) or the write lock (SQLite).
      async up(db: Kysely<unknown>) {
        const usage = `${table}_usage`;
        await db.schema
          .createTable(usage)
          .addColumn('id', 'integer', (column) => column.primaryKey())
          .addColumn('counters', 'bigint', (column) => column.notNull())
          .addColumn('bytes', 'bigint', (column) => column.notNull())
          .execute();
        await sql`INSERT INTO ${sql.table(usage)} (id, counters, bytes)
          SELECT 1, count(*), coalesce(sum(octet_length(key)), 0) + ${COUNTER_OVERHEAD_BYTES} * count(*)
          FROM ${sql.table(table)}`.execute(db);
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
  // On a shared PostgreSQL, another program's dropped schema must not fail our start.
  const { error } = await migrateDespiteDroppedSchemas(() => migrator.migrateToLatest());
  if (error) throw error;
}
