/**
 * @module Tests: what the per-request caches must not change, through the running bin. Sessions
 * kept in memory (5 s) still end at once on logout and within 5 s when another process deletes
 * them; remembered /auth/me answers follow user changes; cached audit pages still show every new
 * entry, including one another process wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startClockedServer } from './support/clocked-server.js';
import { adminPassword, type Installation } from './support/installation.js';
import type { RunningServer } from './support/running-bin.js';
import { type SqlRunner, sqlRunner } from './support/sql-fixtures.js';

let installation: Installation;
let server: RunningServer;
let sql: SqlRunner;
let setClockOffset: (ms: number) => Promise<void>;

beforeAll(async () => {
  ({ installation, server, setClockOffset } = await startClockedServer());
  sql = await sqlRunner({ sqliteFile: installation.sqliteFile });
});

afterAll(async () => {
  await sql.close();
  await server.stop();
  await installation.remove();
});

async function signedIn(): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  expect((await client.login('admin', adminPassword)).status).toBe(200);
  // Served twice, so the session is in the cache when the test changes it.
  expect((await client.get('/api/v1/auth/me')).body.data.authenticated).toBe(true);
  expect((await client.get('/api/v1/settings')).status).toBe(200);
  return client;
}

describe('sessions kept in memory', () => {
  test('logout ends the session at once: its old cookie replayed is 401, other sessions live on', async () => {
    await setClockOffset(0);
    const other = await signedIn();
    const client = await signedIn();
    const oldCookie = client.cookie!;
    expect((await client.post('/api/v1/auth/logout')).status).toBe(200);
    const replayed = await fetch(`${server.url}/api/v1/settings`, { headers: { cookie: oldCookie } });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe('AUTH_REQUIRED');
    const me = await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: oldCookie } });
    expect(((await me.json()) as { data: unknown }).data).toEqual({ authenticated: false });
    expect((await other.get('/api/v1/settings')).status).toBe(200);
  });

  test('a session another process deleted is refused once the 5 s cache bound has passed', async () => {
    await setClockOffset(0);
    const client = await signedIn();
    await sql.run('DELETE FROM auth_sessions');
    await setClockOffset(5_000);
    const refused = await client.get('/api/v1/settings');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_REQUIRED');
  });
});

describe('remembered /auth/me answers', () => {
  test('show a change to the user once the session is read again (here: made by another process)', async () => {
    await setClockOffset(0);
    const client = await signedIn();
    const before = (await client.get('/api/v1/auth/me')).body.data;
    expect(before.user.display_name).toBeNull();
    await sql.run(`UPDATE auth_users SET display_name = 'Ada', role = 'viewer' WHERE username = 'admin'`);
    await setClockOffset(5_000);
    const after = (await client.get('/api/v1/auth/me')).body.data;
    expect(after.user).toMatchObject({ display_name: 'Ada', role: 'viewer' });
    expect(after.csrf_token).toBe(before.csrf_token);
    await sql.run(`UPDATE auth_users SET display_name = NULL, role = 'admin' WHERE username = 'admin'`);
    await setClockOffset(10_000);
    expect((await client.get('/api/v1/auth/me')).body.data).toEqual(before);
  });
});

describe('cached audit pages', () => {
  test('the same query string shows the entries written since, by this server or another process', async () => {
    await setClockOffset(0);
    const admin = await signedIn();
    const newest = async () => (await admin.get('/api/v1/audit?limit=1')).body.data.entries[0];
    const before = await newest();
    expect((await newest()).seq).toBe(before.seq);

    const refused = await admin.put('/api/v1/settings', {}, { withoutCsrf: true });
    expect(refused.status).toBe(403);
    const audited = await newest();
    expect(audited.seq).toBe(before.seq + 1);
    expect(audited.request_id).toBe(refused.headers.get('x-request-id'));

    // Another process appends (the CLI does, on the same database).
    await sql.run(
      `INSERT INTO auth_audit (id, seq, at, actor, action, target, outcome, request_id, client, detail, prev_hash, hash)
       VALUES ('outside', $1, 0, 'cli', 'outside.append', NULL, 'success', NULL, NULL, '{}', $2, $3)`,
      [audited.seq + 1, audited.hash, 'f'.repeat(64)],
    );
    expect((await newest()).action).toBe('outside.append');
  });

  test('an invalid query string is refused even after valid ones were cached', async () => {
    await setClockOffset(0);
    const admin = await signedIn();
    expect((await admin.get('/api/v1/audit?limit=5')).status).toBe(200);
    const invalid = await admin.get('/api/v1/audit?limit=5&colour=red');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('REQUEST_INVALID');
  });
});
