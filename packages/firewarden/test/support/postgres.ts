/**
 * @module A fresh PostgreSQL schema per test file on the loopback server (127.0.0.1:5432, trust
 * auth, database `test`), reached through a DSN whose `search_path` points at it, dropped
 * afterwards. Without a server the tests skip with the reason, except under CI=true.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const baseDsn = process.env.FIREWARDEN_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchema {
  /** DSN for `database.postgres_dsn`, bound to the schema. */
  dsn: string;
  schema: string;
  drop: () => Promise<void>;
}

/** Null (with the reason printed) when PostgreSQL is absent outside CI. */
export async function createTestSchema(): Promise<TestSchema | null> {
  const schema = `fw_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: baseDsn, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    console.warn(`skipping PostgreSQL tests: ${baseDsn} unreachable (${(error as Error).message})`);
    return null;
  }
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(baseDsn);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dsn: url.toString(),
    schema,
    drop: async () => {
      const admin = new pg.Client({ connectionString: baseDsn });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}

/** Whether PostgreSQL answers, decided once per file (for describe.skipIf). */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: baseDsn, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    console.warn(`skipping PostgreSQL tests: ${baseDsn} unreachable (${(error as Error).message})`);
    return false;
  }
}
