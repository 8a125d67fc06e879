/**
 * @module Tests: cutting off an account through the running bin. The API's
 * `PATCH /users/{id}` (role, disabled), `POST /users/{id}/password` and
 * `POST /users/{id}/sessions/revoke` take effect on the user's next request, keep one enabled admin
 * (409 `LAST_ADMIN`), are admin-only and audited; the CLI's `user disable|enable|role|password|unlock`
 * do the same against the database of a running server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { type RunningServer, runCli, startServer } from './support/running-bin.js';

let installation: Installation;
let server: RunningServer;
let admin: ApiClient;
let nextAddress = 1;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  // Loopback is the trusted proxy, so each sign-in below comes from its own address.
  await installation.writeConfig({ server: { trusted_proxies: ['127.0.0.1'] } });
  await installation.createAdmin();
  server = await startServer(['--config', installation.configFile]);
  admin = await signIn('admin');
});

afterAll(async () => {
  await server?.stop();
  await installation?.remove();
});

/** A browser-like client signed in as `username`, from a fresh address. */
async function signIn(username: string, password = adminPassword): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const address = `198.51.100.${nextAddress++}`;
  const answer = await client.post(
    '/api/v1/auth/login',
    { username, password },
    { headers: { 'x-forwarded-for': address } },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  client.cookie = answer.headers.get('set-cookie')!.split(';', 1)[0]!;
  client.csrf = answer.body.data.csrf_token;
  return client;
}

const loginStatus = async (username: string, password = adminPassword) =>
  (
    await new ApiClient(server.url).post(
      '/api/v1/auth/login',
      { username, password },
      { headers: { 'x-forwarded-for': `198.51.100.${nextAddress++}` } },
    )
  ).body;

async function createUser(username: string, role: 'admin' | 'viewer'): Promise<string> {
  const created = await admin.post('/api/v1/users', { username, password: adminPassword, role });
  expect(created.status).toBe(201);
  return created.body.data.user.id;
}

const patch = (client: ApiClient, id: string, body: unknown) =>
  client.request('PATCH', `/api/v1/users/${id}`, { body });

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(['user', ...args, '--config', installation.configFile, '--json'], env);

describe('through the API', () => {
  test('disabling a user ends their open session at once; enabling lets them sign in again', async () => {
    const id = await createUser('dora', 'viewer');
    const dora = await signIn('dora');
    expect((await dora.get('/api/v1/auth/me')).body.data.authenticated).toBe(true);
    const disabled = await patch(admin, id, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.user).toMatchObject({ username: 'dora', disabled: true });
    expect((await dora.get('/api/v1/notifications')).status).toBe(401);
    expect((await loginStatus('dora')).error.code).toBe('AUTH_ACCOUNT_DISABLED');
    expect((await patch(admin, id, { disabled: false })).status).toBe(200);
    await signIn('dora');
  });

  test("a role change applies to the user's next request, under the same session", async () => {
    const id = await createUser('vera', 'viewer');
    const vera = await signIn('vera');
    expect((await vera.get('/api/v1/users')).status).toBe(403);
    expect((await patch(vera, id, { role: 'admin' })).status).toBe(403);
    expect((await patch(admin, id, { role: 'admin' })).body.data.user.role).toBe('admin');
    expect((await vera.get('/api/v1/users')).status).toBe(200);
    expect((await patch(admin, id, { role: 'viewer' })).status).toBe(200);
    expect((await vera.get('/api/v1/users')).status).toBe(403);
  });

  test('the last enabled admin can be neither disabled nor demoted: 409 LAST_ADMIN, audited', async () => {
    const me = (await admin.get('/api/v1/auth/me')).body.data.user.id;
    for (const body of [{ disabled: true }, { role: 'viewer' }]) {
      const refused = await patch(admin, me, body);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('LAST_ADMIN');
    }
    expect((await admin.get('/api/v1/users')).status).toBe(200);
    const audit = await admin.get('/api/v1/audit?action=users.update&outcome=rejected');
    expect(audit.body.data.entries[0]).toMatchObject({
      actor: 'admin',
      target: me,
      detail: { code: 'LAST_OF_ROLE', role: 'viewer' },
    });
    // With a second enabled admin, the first may step down.
    const otherId = await createUser('second-admin', 'admin');
    const other = await signIn('second-admin');
    expect((await patch(other, me, { role: 'viewer' })).status).toBe(200);
    expect((await patch(other, me, { role: 'admin' })).status).toBe(200);
    expect((await patch(admin, otherId, { disabled: true })).status).toBe(200);
  });

  test('a new password is policy-checked and ends the user sessions; the right old password stops working', async () => {
    const id = await createUser('paula', 'viewer');
    const paula = await signIn('paula');
    const short = await admin.post(`/api/v1/users/${id}/password`, { password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    expect((await paula.get('/api/v1/notifications')).status).toBe(200);
    const changed = await admin.post(`/api/v1/users/${id}/password`, { password: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    expect((await paula.get('/api/v1/notifications')).status).toBe(401);
    expect((await loginStatus('paula')).error.code).toBe('AUTH_INVALID_CREDENTIALS');
    await signIn('paula', 'a brand new passphrase');
  });

  test('an admin changing their own password stays signed in there; their other sessions end', async () => {
    const me = (await admin.get('/api/v1/auth/me')).body.data.user.id;
    const elsewhere = await signIn('admin');
    const changed = await admin.post(`/api/v1/users/${me}/password`, { password: 'an interim passphrase' });
    expect(changed.status).toBe(200);
    expect((await admin.get('/api/v1/users')).status).toBe(200);
    expect((await elsewhere.get('/api/v1/users')).status).toBe(401);
    expect((await admin.post(`/api/v1/users/${me}/password`, { password: adminPassword })).status).toBe(200);
  });

  test('ending a user sessions signs them out everywhere; unknown ids are 404; viewers are refused', async () => {
    const id = await createUser('sam', 'viewer');
    const [first, second] = [await signIn('sam'), await signIn('sam')];
    const ended = await admin.post(`/api/v1/users/${id}/sessions/revoke`);
    expect(ended.status).toBe(200);
    expect(ended.body.data.ended_sessions).toBe(2);
    expect((await first.get('/api/v1/notifications')).status).toBe(401);
    expect((await second.get('/api/v1/notifications')).status).toBe(401);
    const sam = await signIn('sam');
    expect((await sam.post(`/api/v1/users/${id}/sessions/revoke`)).status).toBe(403);
    expect((await sam.post(`/api/v1/users/${id}/password`, { password: 'x'.repeat(20) })).status).toBe(403);
    const unknown = await patch(admin, '00000000-0000-4000-8000-000000000000', { disabled: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const extra = await patch(admin, id, { disabled: true, username: 'renamed' });
    expect(extra.status).toBe(400);
    const audit = await admin.get('/api/v1/audit?action=users.sessions_revoke');
    expect(audit.body.data.entries[0]).toMatchObject({
      actor: 'admin',
      target: id,
      outcome: 'success',
      detail: { username: 'sam', ended: 2 },
    });
  });
});

describe('through the CLI, against a running server', () => {
  test('user disable / enable / role / password, each audited as cli', async () => {
    await createUser('carl', 'viewer');
    const disabled = await cli(['disable', 'carl']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout).user).toMatchObject({ username: 'carl', disabled: true });
    expect((await loginStatus('carl')).error.code).toBe('AUTH_ACCOUNT_DISABLED');
    expect((await cli(['enable', 'carl'])).code).toBe(0);
    expect((await cli(['role', 'carl', 'admin'])).code).toBe(0);
    const carl = await signIn('carl');
    expect((await carl.get('/api/v1/users')).status).toBe(200);
    expect((await cli(['role', 'carl', 'root'])).code).toBe(2);
    const missing = await cli(['password', 'carl']);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe('ADMIN_PASSWORD_MISSING');
    const changed = await cli(['password', 'carl'], { FIREWARDEN_ADMIN_PASSWORD: 'carl has a new one' });
    expect(changed.code, changed.stderr).toBe(0);
    await signIn('carl', 'carl has a new one');
    const unknown = await cli(['disable', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('NOT_FOUND');
    const audit = await admin.get('/api/v1/audit?action=users.update&actor=cli');
    expect(audit.body.data.entries.length).toBeGreaterThanOrEqual(3);
    // The CLI writes into the server's keyed chain: it still verifies.
    const doctor = await runCli(['doctor', '--config', installation.configFile, '--json']);
    const chain = JSON.parse(doctor.stdout).checks.find(
      (check: { name: string }) => check.name === 'audit_chain',
    );
    expect(chain.status, chain.message).toBe('ok');
  });

  test('user disable refuses the last enabled admin (LAST_ADMIN)', async () => {
    for (const username of ['vera', 'carl']) {
      const id = (await admin.get('/api/v1/users')).body.data.users.find(
        (user: { username: string }) => user.username === username,
      ).id;
      await patch(admin, id, { role: 'viewer' });
    }
    const refused = await cli(['disable', 'admin']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('LAST_ADMIN');
    expect((await cli(['role', 'admin', 'viewer'])).code).toBe(1);
    expect((await admin.get('/api/v1/users')).status).toBe(200);
  });

  test('user unlock lifts the lock the running server holds against a failing address', async () => {
    const attempt = (address: string, password: string) =>
      new ApiClient(server.url).post(
        '/api/v1/auth/login',
        { username: 'admin', password },
        { headers: { 'x-forwarded-for': address } },
      );
    for (let index = 1; index <= 10; index++) {
      expect((await attempt(`203.0.113.${index}`, 'not the password')).status).toBe(401);
    }
    expect((await attempt('203.0.113.1', adminPassword)).status).toBe(429);
    const unlocked = await cli(['unlock', 'admin']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect((await attempt('203.0.113.1', adminPassword)).status).toBe(200);
    const audit = await admin.get('/api/v1/audit?action=users.unlock');
    expect(audit.body.data.entries[0]).toMatchObject({ actor: 'cli', detail: { username: 'admin' } });
  });
});
