/**
 * @module Tests: the audit trail of issue 24 (items 3 and 11) through the bins. The chain is keyed
 * with a key kept beside the database and its head outside it, so `firewarden doctor --json`
 * notices the newest 500 entries deleted (truncated) and an actor rewritten and re-hashed without
 * the key (rewritten), and reports the head it checked; refused and unauthenticated requests
 * (2,000 sign-outs without a session, a hostile page's requests refused for their Origin) are
 * counted per minute instead of an entry each; retention prunes behind a signed checkpoint and
 * the chain still verifies, while tampering after it is found.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type AuthDatabase, unkeyedAuditHash as unkeyedHash } from '@suite/web-auth';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { runCli, startServer } from './support/running-bin.js';

type AuditRow = AuthDatabase['auth_audit'];

async function doctor(installation: Installation, ...extra: string[]) {
  const answer = await runCli([
    'doctor',
    '--config',
    installation.configFile,
    '--data-dir',
    installation.dir,
    '--json',
    ...extra,
  ]);
  const chain = JSON.parse(answer.stdout).checks.find(
    (check: { name: string }) => check.name === 'audit_chain',
  );
  return { code: answer.code, chain };
}

function countRows(installation: Installation, table: string): number {
  const db = new Database(installation.sqliteFile, { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('the keyed audit chain through the bins (SQLite)', () => {
  let installation: Installation;

  beforeEach(async () => {
    installation = (await createInstallation('sqlite'))!;
    await installation.createAdmin();
  });
  afterEach(() => installation.remove());

  /** Signs in and sends `count` authenticated requests that each write a chained entry. */
  async function writeEntries(count: number, writeConfig?: Record<string, Record<string, unknown>>) {
    if (writeConfig) await installation.writeConfig(writeConfig);
    const server = await startServer(['--config', installation.configFile]);
    try {
      const admin = new ApiClient(server.url);
      expect((await admin.login('admin', adminPassword)).status).toBe(200);
      for (let index = 0; index < count; index++) {
        expect((await admin.post('/api/v1/users', {})).status).toBe(400);
      }
      return admin;
    } finally {
      await server.stop();
    }
  }

  test('keeps the key and the head beside the database, mode 0600', async () => {
    await writeEntries(1);
    for (const name of ['audit.key', 'audit.head'])
      expect(statSync(path.join(installation.dir, name)).mode & 0o777).toBe(0o600);
    const { code, chain } = await doctor(installation);
    expect(code).toBe(0);
    const head = JSON.parse(readFileSync(path.join(installation.dir, 'audit.head'), 'utf8'));
    expect(chain).toMatchObject({ status: 'ok', details: { ok: true, head } });
    expect(chain.message).toMatch(new RegExp(`chain intact \\(head entry ${head.seq};`));
  });

  test('doctor finds the newest 500 entries deleted (truncated) and names the head it checked', async () => {
    await writeEntries(520);
    const before = await doctor(installation);
    expect(before.code).toBe(0);
    const headSeq = before.chain.details.head.seq as number;
    expect(headSeq).toBeGreaterThan(520);
    const db = new Database(installation.sqliteFile);
    db.prepare('delete from auth_audit where seq > ?').run(headSeq - 500);
    db.close();
    const after = await doctor(installation);
    expect(after.code).toBe(1);
    expect(after.chain).toMatchObject({
      status: 'fail',
      details: { ok: false, reason: 'truncated', head: { seq: headSeq }, brokenSeq: headSeq - 499 },
    });
    expect(after.chain.message).toMatch(/^audit trail truncated at entry/);
    expect((await doctor(installation, '--full')).chain.details).toMatchObject({
      reason: 'truncated',
      full: true,
    });
  });

  test('doctor finds an actor rewritten and the chain re-hashed without the key (rewritten)', async () => {
    await writeEntries(5);
    const db = new Database(installation.sqliteFile);
    const rows = db.prepare('select * from auth_audit order by seq').all() as AuditRow[];
    const victim = rows.findIndex((row) => row.actor === 'admin');
    let prev = rows[victim]!.prev_hash;
    for (const row of rows.slice(victim)) {
      const edited = { ...row, actor: row === rows[victim] ? 'someone-else' : row.actor, prev_hash: prev };
      edited.hash = unkeyedHash(prev, edited);
      db.prepare('update auth_audit set actor = ?, prev_hash = ?, hash = ? where seq = ?').run(
        edited.actor,
        edited.prev_hash,
        edited.hash,
        row.seq,
      );
      prev = edited.hash;
    }
    db.close();
    const { code, chain } = await doctor(installation, '--full');
    expect(code).toBe(1);
    expect(chain).toMatchObject({
      status: 'fail',
      details: { reason: 'unkeyed', brokenSeq: rows[victim]!.seq },
    });
    expect(chain.message).toMatch(/^audit trail rewritten at entry/);
  });

  test('2,000 sign-outs without a session and 200 foreign-Origin requests add no chained entry', async () => {
    const server = await startServer(['--config', installation.configFile]);
    try {
      const before = countRows(installation, 'auth_audit');
      const anonymous = new ApiClient(server.url);
      for (let index = 0; index < 2_000; index++)
        expect((await anonymous.post('/api/v1/auth/logout')).status).toBe(200);
      for (let index = 0; index < 200; index++) {
        const refused = await anonymous.post('/api/v1/auth/logout', undefined, {
          headers: { origin: 'http://hostile.example' },
        });
        expect(refused.status).toBe(403);
      }
      expect(countRows(installation, 'auth_audit')).toBe(before);
      // Counted per kind and minute: a handful of rows at most (the run may straddle a minute).
      expect(countRows(installation, 'auth_audit_refusals')).toBeLessThanOrEqual(4);
      const admin = new ApiClient(server.url);
      expect((await admin.login('admin', adminPassword)).status).toBe(200);
      const { refusals } = (await admin.get('/api/v1/audit/refusals')).body.data;
      const total = (kind: string) =>
        refusals
          .filter((refusal: { kind: string }) => refusal.kind === kind)
          .reduce((sum: number, refusal: { count: number }) => sum + refusal.count, 0);
      expect(total('auth.logout no_session')).toBe(2_000);
      expect(total('POST /api/v1/auth/logout denied ORIGIN_NOT_ALLOWED')).toBe(200);
      expect(refusals[0].sample).toMatchObject({ client: '127.0.0.1' });
    } finally {
      await server.stop();
    }
  });

  test('retention prunes behind a signed checkpoint: the chain still verifies, later tampering is found', async () => {
    const clockFile = path.join(installation.dir, 'clock-offset');
    const env = { FIREWARDEN_TEST_CLOCK_FILE: clockFile, NODE_ENV: 'test' };
    await installation.writeConfig({ audit: { retention_days: 1 } });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(clockFile, '0');
    let server = await startServer(['--config', installation.configFile], env);
    const admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
    for (let index = 0; index < 10; index++) expect((await admin.post('/api/v1/users', {})).status).toBe(400);
    await server.stop();
    const written = countRows(installation, 'auth_audit');

    // Two days later the start-up job prunes everything older than a day.
    await writeFile(clockFile, String(2 * 86_400_000));
    server = await startServer(['--config', installation.configFile], env);
    const later = new ApiClient(server.url);
    expect((await later.login('admin', adminPassword)).status).toBe(200);
    for (let tries = 0; tries < 50 && countRows(installation, 'auth_audit_marks') < 2; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    expect(countRows(installation, 'auth_audit')).toBeLessThan(written);
    const db = new Database(installation.sqliteFile);
    const checkpoint = db.prepare("select seq from auth_audit_marks where name = 'checkpoint'").get() as {
      seq: number;
    };
    expect(checkpoint.seq).toBeGreaterThan(0);
    db.close();
    expect(await doctor(installation, '--full')).toMatchObject({
      code: 0,
      chain: { status: 'ok', details: { from: checkpoint.seq } },
    });

    const tamper = new Database(installation.sqliteFile);
    tamper.prepare("update auth_audit set outcome = 'tampered' where seq = ?").run(checkpoint.seq + 1);
    tamper.close();
    expect(await doctor(installation, '--full')).toMatchObject({
      code: 1,
      chain: { details: { reason: 'hash', brokenSeq: checkpoint.seq + 1 } },
    });
  });
});
