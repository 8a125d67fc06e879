/**
 * @module Applies and inspects the migrations of every owner of tables in the database
 * (`@suite/web-auth` for users, sessions and audit; firewarden for the rest). Each owner keeps
 * its own kysely migration table, so either can add migrations without ordering the other's.
 */
import { migrateDespiteDroppedSchemas } from '@suite/server-kit';
import { type Kysely, type Migration, type MigrationResult, Migrator } from 'kysely';

export interface MigrationSet {
  /** Who owns the tables: `web-auth`, `firewarden`. */
  owner: string;
  migrations: Record<string, Migration>;
  /** kysely's bookkeeping tables for this owner. */
  tableName: string;
  lockTableName: string;
}

interface MigrationSetStatus {
  owner: string;
  applied: string[];
  pending: string[];
  /** Recorded in the database but unknown to this version: the database is newer than the code. */
  unknown: string[];
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

function migratorFor(db: Kysely<unknown>, set: MigrationSet) {
  return new Migrator({
    db,
    provider: { getMigrations: async () => set.migrations },
    migrationTableName: set.tableName,
    migrationLockTableName: set.lockTableName,
  });
}

export async function migrationStatus(
  db: Kysely<unknown>,
  sets: MigrationSet[],
): Promise<MigrationSetStatus[]> {
  const statuses: MigrationSetStatus[] = [];
  for (const set of sets) {
    const known = await migratorFor(db, set).getMigrations();
    const recorded = await recordedNames(db, set.tableName);
    statuses.push({
      owner: set.owner,
      applied: known.filter((m) => m.executedAt).map((m) => m.name),
      pending: known.filter((m) => !m.executedAt).map((m) => m.name),
      unknown: recorded.filter((name) => !(name in set.migrations)),
    });
  }
  return statuses;
}

/** Applies every pending migration; throws `MigrationError` naming the one that failed. */
export async function migrateToLatest(db: Kysely<unknown>, sets: MigrationSet[]): Promise<MigrationResult[]> {
  const applied: MigrationResult[] = [];
  for (const set of sets) {
    // On a shared PostgreSQL, another program's dropped schema must not fail our start.
    const { error, results = [] } = await migrateDespiteDroppedSchemas(() =>
      migratorFor(db, set).migrateToLatest(),
    );
    applied.push(...results.filter((result) => result.status === 'Success'));
    if (error) {
      const failed = results.find((result) => result.status === 'Error');
      const detail = error instanceof Error ? error.message : String(error);
      throw new MigrationError(
        `${set.owner} migration ${failed?.migrationName ?? '(setup)'} failed: ${detail}`,
      );
    }
  }
  return applied;
}

/** Names in the owner's migration table; none when the table does not exist yet. */
async function recordedNames(db: Kysely<unknown>, tableName: string): Promise<string[]> {
  try {
    const rows = await (db as Kysely<Record<string, { name: string }>>)
      .selectFrom(tableName)
      .select('name')
      .execute();
    return rows.map((row) => row.name);
  } catch {
    // A fresh database has no bookkeeping table yet (introspection would also see other schemas').
    return [];
  }
}
