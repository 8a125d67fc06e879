/**
 * @module Tests: kysely's Migrator on the loopback PostgreSQL while another connection creates
 * and drops schemas non-stop (as parallel test files, or other programs on a shared database,
 * do). Run bare, some runs fail on a schema (or a table of one) that is not theirs; through
 * `migrateDespiteDroppedSchemas` none does. A 3F000 or 42P01 naming our own schema, or any
 * other error, is given back at once.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, type Migration, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrateDespiteDroppedSchemas } from '../src/shared-database-migrations.js';

const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const runs = 80;

describe('migrations on a database where others drop schemas', () => {
  const schema = `server_kit_${randomBytes(6).toString('hex')}`;
  const churnPrefix = `server_kit_churn_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let db: Kysely<unknown>;
  let churning = true;
  let churn: Promise<void>;

  const migrator = () =>
    new Migrator({
      db,
      migrationTableSchema: schema,
      provider: {
        getMigrations: async (): Promise<Record<string, Migration>> => ({
          '001': {
            up: async (target) => {
              await target.schema
                .createTable('notes')
                .addColumn('id', 'integer', (c) => c.primaryKey())
                .execute();
            },
          },
        }),
      },
    });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    db = new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` }),
      }),
    });
    const neighbour = new pg.Client({ connectionString: url });
    await neighbour.connect();
    churn = (async () => {
      for (let n = 0; churning; n++) {
        await neighbour.query(
          `create schema ${churnPrefix}_${n}; create table ${churnPrefix}_${n}.t (id serial)`,
        );
        await neighbour.query(`drop schema ${churnPrefix}_${n} cascade`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await neighbour.end();
    })();
  });
  afterAll(async () => {
    churning = false;
    await churn;
    await db?.destroy();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  test('bare runs meet dropped neighbours; through the helper every run succeeds', async () => {
    const bareFailures: unknown[] = [];
    for (let run = 0; run < runs; run++) {
      const { error } = await migrator().migrateToLatest();
      if (error) bareFailures.push(error);
    }
    // The hazard is real: some bare runs failed, each on a schema of the neighbour's (3F000) or
    // one of its tables (42P01).
    expect(bareFailures.length).toBeGreaterThan(0);
    for (const failure of bareFailures) {
      expect(['3F000', '42P01']).toContain((failure as { code?: string }).code);
      expect((failure as Error).message).toContain(churnPrefix);
    }

    for (let run = 0; run < runs; run++) {
      const { error } = await migrateDespiteDroppedSchemas(() => migrator().migrateToLatest(), schema);
      expect(error).toBeUndefined();
    }
    const tables = await admin.query(
      "select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'notes'",
      [schema],
    );
    expect(tables.rows[0].n).toBe(1);
  });
});

describe('what is not a dropped neighbour is given back at once', () => {
  const failing = (error: unknown) => {
    let calls = 0;
    const migrate = async () => {
      calls++;
      return { error };
    };
    return { migrate, calls: () => calls };
  };

  test('a 3F000 naming our own schema', async () => {
    const ours = failing(Object.assign(new Error('schema "mine" does not exist'), { code: '3F000' }));
    expect((await migrateDespiteDroppedSchemas(ours.migrate, 'mine')).error).toBeInstanceOf(Error);
    expect(ours.calls()).toBe(1);
  });

  test('a 42P01 naming a table of our own schema, or no schema', async () => {
    for (const message of ['relation "mine.notes" does not exist', 'relation "notes" does not exist']) {
      const ours = failing(Object.assign(new Error(message), { code: '42P01' }));
      await migrateDespiteDroppedSchemas(ours.migrate, 'mine');
      expect(ours.calls()).toBe(1);
    }
  });

  test('a 42P01 naming a table of a neighbour is run again', async () => {
    let calls = 0;
    const { error } = await migrateDespiteDroppedSchemas(async () => {
      calls++;
      return calls < 3
        ? { error: Object.assign(new Error('relation "theirs.t" does not exist'), { code: '42P01' }) }
        : {};
    }, 'mine');
    expect([error, calls]).toEqual([undefined, 3]);
  });

  test('any other error', async () => {
    const other = failing(Object.assign(new Error('relation "x" already exists'), { code: '42P07' }));
    await migrateDespiteDroppedSchemas(other.migrate, 'mine');
    expect(other.calls()).toBe(1);
  });

  test('a neighbour that keeps failing is given up on after a few runs', async () => {
    const gone = failing(Object.assign(new Error('schema "theirs" does not exist'), { code: '3F000' }));
    expect((await migrateDespiteDroppedSchemas(gone.migrate, 'mine')).error).toBeInstanceOf(Error);
    expect(gone.calls()).toBe(30);
  });
});
