/**
 * @module Tests (issue 23 item 10): the audit chain is keyed with a key kept in the data dir,
 * outside the database, and its head is kept there too, so `GET /audit/verify` notices the 3
 * newest entries deleted (truncation) and an actor rewritten and re-hashed with the unkeyed rule
 * (all an attacker without the key can compute), and reports the head it checked.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type AuthDatabase, unkeyedAuditHash as unkeyedHash } from '@suite/web-auth';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';

type AuditRow = AuthDatabase['auth_audit'];

describe('the keyed audit chain', () => {
  let daemon: RunningDaemon;
  let owner: Client;
  const databaseFile = () => path.join(daemon.dataDir, 'workspaced.db');

  beforeEach(async () => {
    daemon = await startDaemon();
    owner = await setupOwner(daemon);
    // Mutations the owner makes, each an audit entry (refused for their body).
    for (let index = 0; index < 6; index++)
      expect((await owner.post('/projects', { name: `p${index}` })).status).toBeGreaterThanOrEqual(400);
  });
  afterEach(async () => {
    await daemon.stop();
    await removeDataDir(daemon);
  });

  test('keeps the key and the head in the data dir (0600), and verify reports the head it checked', async () => {
    for (const name of ['audit.key', 'audit.head'])
      expect(statSync(path.join(daemon.dataDir, name)).mode & 0o777).toBe(0o600);
    const head = JSON.parse(readFileSync(path.join(daemon.dataDir, 'audit.head'), 'utf8'));
    const verdict = (await owner.get('/audit/verify')).body;
    expect(verdict).toMatchObject({ ok: true, head, last: head, full: true, unanchored: 0 });
    expect((await owner.get('/audit/verify?incremental=true')).body).toMatchObject({
      ok: true,
      checked: 0,
      full: false,
    });
  });

  test('deleting the 3 newest entries is reported as truncation', async () => {
    const head = JSON.parse(readFileSync(path.join(daemon.dataDir, 'audit.head'), 'utf8'));
    const database = new Database(databaseFile());
    try {
      database.prepare('DELETE FROM auth_audit WHERE seq > ?').run(head.seq - 3);
    } finally {
      database.close();
    }
    const verdict = (await owner.get('/audit/verify')).body;
    expect(verdict).toMatchObject({ ok: false, reason: 'truncated', brokenSeq: head.seq - 2, head });
    expect(verdict.problem).toContain('the newest entries were deleted');
  });

  test('an actor rewritten and the chain re-hashed without the key is reported', async () => {
    const database = new Database(databaseFile());
    let victim: AuditRow;
    try {
      const rows = database.prepare('SELECT * FROM auth_audit ORDER BY seq').all() as AuditRow[];
      victim = rows.find((row) => row.action === 'POST /projects')!;
      let prev = victim.prev_hash;
      for (const row of rows.filter((candidate) => candidate.seq >= victim.seq)) {
        const edited = { ...row, actor: row.seq === victim.seq ? 'nobody' : row.actor, prev_hash: prev };
        edited.hash = unkeyedHash(prev, edited);
        database
          .prepare('UPDATE auth_audit SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?')
          .run(edited.actor, edited.prev_hash, edited.hash, row.seq);
        prev = edited.hash;
      }
    } finally {
      database.close();
    }
    expect((await owner.get('/audit/verify')).body).toMatchObject({
      ok: false,
      reason: 'unkeyed',
      brokenSeq: victim.seq,
    });
  });
});
