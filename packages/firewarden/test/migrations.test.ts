/**
 * @module Tests: `serve` migrates only when safe: it refuses a database migrated by a newer version
 * (SQLite and PostgreSQL), refuses pending migrations when `migrate_on_start` is off, and copies an
 * existing SQLite file before migrating it, with the database's own mode (0600).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Driver, type Installation } from './support/installation.js';
import { postgresAvailable } from './support/postgres.js';
import { runCli, startServer } from './support/running-bin.js';
import { sqlRunner } from './support/sql-fixtures.js';

const drivers: { driver: Driver; available: boolean }[] = [
  { driver: 'sqlite', available: true },
  { driver: 'postgres', available: await postgresAvailable() },
];
let installation: Installation | null = null;

afterEach(async () => {
  await installation?.remove();
  installation = null;
});

const sqlOf = (target: Installation) =>
  sqlRunner({ sqliteFile: target.sqliteFile, dsn: target.dsn ?? undefined });

describe.each(drivers)('on $driver', ({ driver, available }) => {
  test.skipIf(!available)(
    'a database migrated by a newer version is refused by serve and failed by doctor',
    async () => {
      installation = (await createInstallation(driver))!;
      expect((await runCli(['db', 'migrate', '--config', installation.configFile])).code).toBe(0);
      const sql = await sqlOf(installation);
      await sql.run(
        "insert into firewarden_migration (name, timestamp) values ('9999-future', '2030-01-01T00:00:00.000Z')",
      );
      await sql.close();
      const serve = await runCli(['serve', '--config', installation.configFile]);
      expect(serve.code).toBe(2);
      expect(serve.stderr).toContain(
        'the database was migrated by a newer firewarden (firewarden/9999-future)',
      );
      const doctor = JSON.parse(
        (await runCli(['doctor', '--config', installation.configFile, '--json'])).stdout,
      );
      expect(doctor.checks.find((check: { name: string }) => check.name === 'migrations').status).toBe(
        'fail',
      );
    },
  );

  test.skipIf(!available)(
    'with migrate_on_start: false, pending migrations stop serve until db migrate',
    async () => {
      installation = (await createInstallation(driver))!;
      await installation.writeConfig({ database: { migrate_on_start: false } });
      const refused = await runCli(['serve', '--config', installation.configFile]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('pending migration(s) and database.migrate_on_start is false');
      expect((await runCli(['db', 'migrate', '--config', installation.configFile])).code).toBe(0);
      const server = await startServer(['--config', installation.configFile]);
      await server.stop();
    },
  );
});

test('an existing SQLite file is copied before a migration, and a notification names the copy', async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.createAdmin();
  // An installation from before firewarden's own tables: only web-auth's exist.
  const sql = await sqlOf(installation);
  for (const table of [
    'extension_grants',
    'extensions',
    'transactions',
    'restore_points',
    'notification_reads',
    'notifications',
    'settings',
  ]) {
    await sql.run(`drop table ${table}`);
  }
  await sql.run('delete from firewarden_migration');
  await sql.close();

  const server = await startServer(['--config', installation.configFile]);
  try {
    const files = await readdir(installation.dir);
    const backup = files.find((file) => file.startsWith('firewarden.db.before-migrate-'));
    expect(backup).toBeDefined();
    // The copy holds the same password and session hashes: readable by the service account only.
    expect((await stat(installation.sqliteFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(installation.dir, backup!))).mode & 0o777).toBe(0o600);
    const client = new ApiClient(server.url);
    expect((await client.login('admin', adminPassword)).status).toBe(200);
    let item: { code: string; details: { backup: string; applied: string[] } } | undefined;
    for (let tries = 0; tries < 50 && !item; tries++) {
      const page = await client.get('/api/v1/notifications');
      item = page.body.data.items.find((candidate: { code: string }) => candidate.code === 'DB_MIGRATED');
      if (!item) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(item?.details.applied).toEqual(['0001-initial']);
    expect(item?.details.backup).toBe(`${installation.dir}/${backup}`);
  } finally {
    await server.stop();
  }
});
