/**
 * @module The two databases every store test runs on: a SQLite file in a temp folder, and
 * PostgreSQL on loopback in a fresh schema of random name (search_path set on the pool, dropped
 * afterwards). Without PostgreSQL the PostgreSQL runs are skipped with a printed reason, except
 * under CI=true where they run and fail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDespiteDroppedSchemas } from '@suite/server-kit';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { withWebAuthMigrations } from '../../src/index.js';

type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  /** The PostgreSQL schema of this database. */
  schema: string | undefined;
  /** The SQLite file (for another process to open). */
  file?: string;
  /** The PostgreSQL connection string (for another process; set search_path to `schema`). */
  url?: string;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read auth_ tables with raw SQL-shaped rows
  db: Kysely<any>;
  /** Another independent connection pool to the same database (a second server process). */
  // biome-ignore lint/suspicious/noExplicitAny: as above
  openSecond(): Kysely<any>;
  close(): Promise<void>;
}

const postgresUrls = process.env.TEST_POSTGRES_URL
  ? [process.env.TEST_POSTGRES_URL]
  : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];

async function findPostgres(): Promise<string | undefined> {
  for (const url of postgresUrls) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => undefined);
    }
  }
  return undefined;
}

const postgresUrl = await findPostgres();

/** The kinds to run: both, or SQLite alone (with a printed reason) when PostgreSQL is absent off CI. */
export const databaseKinds: DatabaseKind[] =
  postgresUrl || process.env.CI === 'true' ? ['sqlite', 'postgres'] : ['sqlite'];
if (!databaseKinds.includes('postgres')) {
  console.warn('skipping the PostgreSQL runs: no PostgreSQL on 127.0.0.1:5432 (database test)');
}

/**
 * Without `migrationTableSchema`, kysely's Migrator takes a `kysely_migration` table in ANY schema
 * of the database as its own and never creates one in ours.
 */
// biome-ignore lint/suspicious/noExplicitAny: see TestDatabase
async function migrate(db: Kysely<any>, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({ db, provider: withWebAuthMigrations(), migrationTableSchema: schema });
  // Test files run in parallel on one database and drop their schemas as they end.
  const { error } = await migrateDespiteDroppedSchemas(() => migrator.migrateToLatest(), schema);
  if (error) throw error;
}

/** The first pool plus any second ones the test opens, all closed together. */
function withPools(
  // biome-ignore lint/suspicious/noExplicitAny: see TestDatabase
  open: () => Kysely<any>,
  kind: DatabaseKind,
  cleanup: () => Promise<void>,
  schema?: string,
): TestDatabase {
  const db = open();
  const others: Kysely<unknown>[] = [];
  return {
    kind,
    schema,
    db,
    openSecond() {
      const second = open();
      others.push(second);
      return second;
    },
    async close() {
      for (const other of others) await other.destroy();
      await db.destroy();
      await cleanup();
    },
  };
}

function openSqlite(): TestDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'web-auth-'));
  const file = join(folder, 'auth.db');
  const open = () => {
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  };
  const database = withPools(open, 'sqlite', async () => rmSync(folder, { recursive: true, force: true }));
  return { ...database, file };
}

async function openPostgres(): Promise<TestDatabase> {
  if (!postgresUrl) throw new Error('PostgreSQL is required (CI=true) but not reachable on 127.0.0.1:5432');
  const url = postgresUrl;
  const schema = `web_auth_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`create schema ${schema}`);
  const open = () =>
    new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 5 }),
      }),
    });
  const database = withPools(open, 'postgres', () => run(`drop schema ${schema} cascade`), schema);
  return { ...database, url };
}

/** A migrated, empty database of the given kind. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const database = kind === 'sqlite' ? openSqlite() : await openPostgres();
  try {
    await migrate(database.db, database.schema);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
