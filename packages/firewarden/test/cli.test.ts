/**
 * @module Tests: the CLI commands of issue 9, in text and with --json, against real databases
 * (SQLite file, and PostgreSQL where it runs): db migrate, user create-admin, doctor (including a
 * tampered audit chain), preflight, status, service status, agent and restore
 * refusals, --data-dir.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Driver, type Installation } from './support/installation.js';
import { postgresAvailable } from './support/postgres.js';
import { runCli, startServer } from './support/running-bin.js';
import { sqlRunner } from './support/sql-fixtures.js';

const drivers: { driver: Driver; available: boolean }[] = [
  { driver: 'sqlite', available: true },
  { driver: 'postgres', available: await postgresAvailable() },
];

describe.each(drivers)('database commands on $driver', ({ driver, available }) => {
  let installation: Installation;
  const config = () => ['--config', installation.configFile];

  beforeAll(async () => {
    if (available) installation = (await createInstallation(driver))!;
  });
  afterAll(async () => {
    if (available) await installation.remove();
  });

  test.skipIf(!available)('db migrate applies every migration once, then says up to date', async () => {
    const first = await runCli(['db', 'migrate', ...config(), '--json']);
    expect(first.code).toBe(0);
    const body = JSON.parse(first.stdout);
    expect(body.ok).toBe(true);
    expect(body.applied).toEqual([
      'web-auth-0001-users',
      'web-auth-0002-sessions',
      'web-auth-0003-audit',
      'web-auth-0004-lockouts',
      'web-auth-0005-audit-keyed',
      '0001-initial',
    ]);
    const again = await runCli(['db', 'migrate', ...config()]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/: up to date\n$/);
  });

  test.skipIf(!available)(
    'user create-admin reads the password only from FIREWARDEN_ADMIN_PASSWORD',
    async () => {
      const missing = await runCli(['user', 'create-admin', ...config()]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('set FIREWARDEN_ADMIN_PASSWORD');
      const short = await runCli(['user', 'create-admin', ...config(), '--json'], {
        FIREWARDEN_ADMIN_PASSWORD: 'short',
      });
      expect(short.code).toBe(1);
      expect(JSON.parse(short.stdout).error.code).toBe('VALIDATION_FAILED');
      const created = await runCli(
        ['user', 'create-admin', ...config(), '--username', 'root-admin', '--json'],
        {
          FIREWARDEN_ADMIN_PASSWORD: adminPassword,
        },
      );
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout).user).toMatchObject({ username: 'root-admin', role: 'admin' });
      const again = await runCli(['user', 'create-admin', ...config(), '--username', 'root-admin'], {
        FIREWARDEN_ADMIN_PASSWORD: adminPassword,
      });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('firewarden: ');
      const text = await runCli(['user', 'create-admin', ...config()], {
        FIREWARDEN_ADMIN_PASSWORD: adminPassword,
      });
      expect(text).toMatchObject({ code: 0, stdout: 'created admin admin\n' });
    },
  );

  test.skipIf(!available)('doctor: a readable table and JSON; exit 0 when nothing fails', async () => {
    const text = await runCli(['doctor', ...config()]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^STATUS\s+CHECK\s+MESSAGE$/);
    expect(text.stdout).toMatch(/OK\s+audit_chain\s+\d+ entries, chain intact/);
    expect(text.stdout).toMatch(/WARN\s+agent\s+agent not connected/);
    expect(lines.at(-1)).toMatch(/^overall: (OK|WARN)$/);
    const json = JSON.parse((await runCli(['doctor', ...config(), '--json'])).stdout);
    expect(json.ok).toBe(true);
    expect(json.checks.map((check: { name: string }) => check.name)).toEqual([
      'config',
      'tls',
      'permissions',
      'database',
      'migrations',
      'audit_chain',
      'users',
      'agent',
      'release_tree',
    ]);
  });

  test.skipIf(!available)(
    'doctor finds a tampered audit entry (exit 1); serve raises a critical notification',
    async () => {
      const sql = await sqlRunner({
        sqliteFile: installation.sqliteFile,
        dsn: installation.dsn ?? undefined,
      });
      await sql.run("update auth_audit set outcome = 'tampered' where seq = 1");
      await sql.close();
      const doctor = await runCli(['doctor', ...config(), '--json']);
      expect(doctor.code).toBe(1);
      const chain = JSON.parse(doctor.stdout).checks.find(
        (check: { name: string }) => check.name === 'audit_chain',
      );
      expect(chain).toMatchObject({ status: 'fail', details: { ok: false, brokenSeq: 1, reason: 'hash' } });

      const server = await startServer(config());
      try {
        const client = new ApiClient(server.url);
        expect((await client.login('admin', adminPassword)).status).toBe(200);
        let codes: string[] = [];
        for (let tries = 0; tries < 50 && !codes.includes('AUDIT_CHAIN_BROKEN'); tries++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const page = await client.get('/api/v1/notifications');
          codes = page.body.data.items.map((item: { code: string }) => item.code);
        }
        expect(codes).toContain('AUDIT_CHAIN_BROKEN');
        const diagnostics = await client.get('/api/v1/system/diagnostics');
        expect(diagnostics.body.data.status).toBe('fail');
      } finally {
        await server.stop();
      }
    },
  );

  test.skipIf(!available)('status: a summary in text and JSON', async () => {
    const text = await runCli(['status', ...config()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^version\s+0\.1\.0$/m);
    expect(text.stdout).toMatch(/^listen\s+http:\/\/127\.0\.0\.1:0$/m);
    const json = JSON.parse((await runCli(['status', ...config(), '--json'])).stdout);
    expect(json).toMatchObject({ ok: true, version: '0.1.0', config_file: installation.configFile });
    expect(json.agent).toContain('agent not connected');
  });
});

describe('commands without a database', () => {
  let installation: Installation;
  beforeAll(async () => {
    installation = (await createInstallation('sqlite'))!;
  });
  afterAll(() => installation.remove());

  test('doctor on a fresh install warns that the database does not exist yet, and creates nothing', async () => {
    const answer = await runCli(['doctor', '--config', installation.configFile, '--json']);
    expect(answer.code).toBe(0);
    const database = JSON.parse(answer.stdout).checks.find(
      (check: { name: string }) => check.name === 'database',
    );
    expect(database).toMatchObject({ status: 'warn' });
    expect(existsSync(installation.sqliteFile)).toBe(false);
  });

  test('preflight adds tool detection, the Node version and the port', async () => {
    const answer = await runCli(['preflight', '--config', installation.configFile, '--json']);
    const names = JSON.parse(answer.stdout).checks.map((check: { name: string }) => check.name);
    expect(names).toEqual(expect.arrayContaining(['backend', 'node', 'port']));
    const text = await runCli(['preflight', '--config', installation.configFile]);
    expect(text.stdout).toMatch(/OK\s+node\s+Node v\d+/);
  });

  test('service status: the init system and both units', async () => {
    const json = JSON.parse((await runCli(['service', 'status', '--json'])).stdout);
    expect(['systemd', 'openrc', 'sysvinit', 'none']).toContain(json.init_system);
    expect(json.units.map((unit: { unit: string }) => unit.unit)).toEqual([
      'firewarden.service',
      'firewarden-agent.service',
    ]);
    const text = await runCli(['service', 'status']);
    expect(text.stdout).toMatch(/^init system: /);
    expect(text.stdout).toMatch(/^UNIT\s+LOADED\s+ACTIVE\s+ENABLED$/m);
  });

  test('agent refuses a group that does not exist (exit 2); restore needs an agent', async () => {
    const config = ['--config', installation.configFile];
    const group = await runCli(['agent', ...config, '--group', 'no-such-group-here', '--json']);
    expect(group.code).toBe(2);
    expect(JSON.parse(group.stdout).error).toMatchObject({
      code: 'CONFIG_INVALID',
      message: '--group: no group "no-such-group-here" in /etc/group',
    });
    const list = await runCli(['restore', 'list', ...config, '--json']);
    expect(list.code).toBe(1);
    expect(JSON.parse(list.stdout).error.code).toBe('FW_AGENT_UNAVAILABLE');
    const apply = await runCli(['restore', 'apply', ...config]);
    expect(apply.code).not.toBe(0);
    expect(apply.stderr).toContain("missing required argument 'id'");
  });

  test('--data-dir keeps the database and the log in one folder', async () => {
    const dataDir = path.join(installation.dir, 'data');
    const created = await runCli(
      ['user', 'create-admin', '--config', installation.configFile, '--data-dir', dataDir],
      {
        FIREWARDEN_ADMIN_PASSWORD: adminPassword,
      },
    );
    expect(created.code).toBe(0);
    const server = await startServer(['--config', installation.configFile, '--data-dir', dataDir]);
    const client = new ApiClient(server.url);
    expect((await client.login('admin', adminPassword)).status).toBe(200);
    await server.stop();
    // Hashes of passwords and sessions: the database is readable by the service account only.
    expect(statSync(path.join(dataDir, 'firewarden.db')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'firewarden.log')).mode & 0o777).toBe(0o640);
  });
});
