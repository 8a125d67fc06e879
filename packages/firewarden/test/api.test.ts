/**
 * @module Tests: every route of issue 9 and its error codes, through HTTP against the running bin,
 * once on a real SQLite file and once on a real PostgreSQL schema.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Driver, type Installation } from './support/installation.js';
import { postgresAvailable } from './support/postgres.js';
import { requestWithHost } from './support/raw-http.js';
import { type RunningServer, startServer } from './support/running-bin.js';
import { type SqlRunner, sqlRunner } from './support/sql-fixtures.js';

const drivers: { driver: Driver; available: boolean }[] = [
  { driver: 'sqlite', available: true },
  { driver: 'postgres', available: await postgresAvailable() },
];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const viewerPassword = 'viewer password 123';

describe.each(drivers)('API on $driver', ({ driver, available }) => {
  let installation: Installation;
  let server: RunningServer;
  let admin: ApiClient;
  let viewer: ApiClient;
  let anonymous: ApiClient;
  let sql: SqlRunner;

  beforeAll(async () => {
    if (!available) return;
    installation = (await createInstallation(driver))!;
    await installation.writeConfig({ security: { login_rate_limit_per_minute: 200 } });
    await installation.createAdmin();
    // FIREWARDEN_LOG_LEVEL locks logging.level for the settings API.
    server = await startServer(['--config', installation.configFile], { FIREWARDEN_LOG_LEVEL: 'info' });
    anonymous = new ApiClient(server.url);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
    const created = await admin.post('/api/v1/users', {
      username: 'vera',
      password: viewerPassword,
      role: 'viewer',
    });
    expect(created.status).toBe(201);
    viewer = new ApiClient(server.url);
    expect((await viewer.login('vera', viewerPassword)).status).toBe(200);
    sql = await sqlRunner({ sqliteFile: installation.sqliteFile, dsn: installation.dsn ?? undefined });
  });

  afterAll(async () => {
    if (!available) return;
    await sql.close();
    expect(await server.stop()).toBe(0);
    await installation.remove();
  });

  describe.skipIf(!available)('envelope and public routes', () => {
    test('GET /version answers the envelope with the request id in header and body', async () => {
      const answer = await anonymous.get('/api/v1/version');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.body).toEqual({
        ok: true,
        data: { name: 'firewarden', version: '0.1.0', api_version: 'v1' },
        request_id: answer.headers.get('x-request-id'),
      });
      expect(answer.body.request_id).toMatch(uuid);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    test('GET /system/health says ok and nothing else', async () => {
      const answer = await anonymous.get('/api/v1/system/health');
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ status: 'ok' });
    });

    test('unknown route: 404 NOT_FOUND in the envelope', async () => {
      const answer = await anonymous.get('/api/v1/nope');
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        ok: false,
        error: { code: 'NOT_FOUND', message: 'no such route' },
        request_id: answer.headers.get('x-request-id'),
      });
    });

    test('other method on a known path: 405 METHOD_NOT_ALLOWED with Allow', async () => {
      const answer = await anonymous.request('DELETE', '/api/v1/version');
      expect(answer.status).toBe(405);
      expect(answer.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    });

    test('a foreign Host (DNS rebinding) gets 403 HOST_NOT_ALLOWED, even on public routes', async () => {
      const answer = await requestWithHost(`${server.url}/api/v1/version`, 'evil.example:80');
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe('HOST_NOT_ALLOWED');
    });

    test('a repeated Host header gets 403 HOST_NOT_ALLOWED, even when every copy is allowed', async () => {
      const { host } = new URL(server.url);
      for (const hosts of [
        [host, 'evil.example:80'],
        ['evil.example:80', host],
        [host, host],
      ]) {
        const answer = await requestWithHost(`${server.url}/api/v1/version`, hosts);
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.body).error.code).toBe('HOST_NOT_ALLOWED');
      }
      expect((await requestWithHost(`${server.url}/api/v1/version`, host)).status).toBe(200);
    });

    test('a state-changing request from another Origin gets 403 ORIGIN_NOT_ALLOWED', async () => {
      const answer = await anonymous.post(
        '/api/v1/auth/login',
        { username: 'admin', password: adminPassword },
        { headers: { origin: 'https://evil.example' } },
      );
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    });
  });

  describe.skipIf(!available)('auth', () => {
    test('login sets an HttpOnly SameSite=Strict cookie (not Secure without TLS) and returns the CSRF token', async () => {
      const client = new ApiClient(server.url);
      const answer = await client.login('admin', adminPassword);
      expect(answer.status).toBe(200);
      const cookie = answer.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^firewarden_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
      expect(answer.body.data).toMatchObject({
        authenticated: true,
        user: { username: 'admin', role: 'admin', disabled: false },
        session: { idle_timeout_seconds: 1800 },
      });
      expect(answer.body.data.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(answer.text).not.toContain(cookie.split(';')[0]!.split('=')[1]);
    });

    test('/auth/me is public: anonymous is not authenticated, a session gets its user and CSRF token', async () => {
      expect((await anonymous.get('/api/v1/auth/me')).body.data).toEqual({ authenticated: false });
      const me = await admin.get('/api/v1/auth/me');
      expect(me.body.data.user.username).toBe('admin');
      expect(me.body.data.csrf_token).toBe(admin.csrf);
    });

    test('wrong password and unknown user get the same 401 AUTH_INVALID_CREDENTIALS', async () => {
      const wrong = await anonymous.post('/api/v1/auth/login', {
        username: 'admin',
        password: 'not the password!',
      });
      const unknown = await anonymous.post('/api/v1/auth/login', {
        username: 'nobody',
        password: 'not the password!',
      });
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.body.error).toEqual({
          code: 'AUTH_INVALID_CREDENTIALS',
          message: 'wrong username or password',
        });
        expect(answer.headers.get('set-cookie')).toBeNull();
      }
    });

    test('malformed JSON, unknown fields, wrong types: 400 REQUEST_INVALID with field paths', async () => {
      const malformed = await anonymous.request('POST', '/api/v1/auth/login', { rawBody: '{"username":' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.code).toBe('REQUEST_INVALID');
      const extra = await anonymous.post('/api/v1/auth/login', {
        username: 'a',
        password: 'b',
        remember: true,
      });
      expect(extra.status).toBe(400);
      expect(extra.body.error.details.errors).toEqual([{ path: 'remember', message: 'unknown field' }]);
      const types = await anonymous.post('/api/v1/auth/login', { username: 1, password: 'b' });
      expect(types.status).toBe(400);
      expect(types.body.error.details.errors[0].path).toBe('username');
    });

    test('a body that is not JSON: 415; larger than the limit: 413 REQUEST_TOO_LARGE', async () => {
      const form = await anonymous.request('POST', '/api/v1/auth/login', {
        rawBody: 'username=admin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(415);
      expect(form.body.error.code).toBe('REQUEST_UNSUPPORTED_MEDIA_TYPE');
      const huge = await anonymous.post('/api/v1/auth/login', {
        username: 'admin',
        password: 'x'.repeat(1_100_000),
      });
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('REQUEST_TOO_LARGE');
    });

    test('a disabled account with the right password: 403 AUTH_ACCOUNT_DISABLED', async () => {
      const created = await admin.post('/api/v1/users', {
        username: 'dora',
        password: 'dora password 1',
        role: 'viewer',
      });
      expect(created.status).toBe(201);
      await sql.run('update auth_users set disabled = 1 where username = $1', ['dora']);
      const answer = await anonymous.post('/api/v1/auth/login', {
        username: 'dora',
        password: 'dora password 1',
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('AUTH_ACCOUNT_DISABLED');
    });

    test('logout needs the CSRF token, ends the server session and clears the cookie', async () => {
      const client = new ApiClient(server.url);
      await client.login('admin', adminPassword);
      const withoutToken = await client.post('/api/v1/auth/logout', undefined, { withoutCsrf: true });
      expect(withoutToken.status).toBe(403);
      expect(withoutToken.body.error.code).toBe('AUTH_CSRF_INVALID');
      const out = await client.post('/api/v1/auth/logout');
      expect(out.status).toBe(200);
      expect(out.body.data).toEqual({ logged_out: true });
      expect(out.headers.get('set-cookie')).toBe(
        'firewarden_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
      );
      // The old cookie no longer opens anything.
      const after = await client.get('/api/v1/settings');
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('AUTH_REQUIRED');
      expect((await client.get('/api/v1/auth/me')).body.data).toEqual({ authenticated: false });
    });
  });

  describe.skipIf(!available)('settings', () => {
    test('GET needs a session (401 AUTH_REQUIRED); a viewer may read', async () => {
      const none = await anonymous.get('/api/v1/settings');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('AUTH_REQUIRED');
      const read = await viewer.get('/api/v1/settings');
      expect(read.status).toBe(200);
      expect(read.body.data.settings).toEqual({
        security: {
          session_idle_timeout_minutes: 30,
          session_absolute_timeout_hours: 24,
          login_rate_limit_per_minute: 200,
        },
        firewall: { safe_apply_timeout_seconds: 60 },
        restore_points: { auto_enabled: true, retain_automatic: 50, retain_manual: 20 },
        logging: { level: 'info' },
      });
      expect(read.body.data.locked).toEqual(['logging.level']);
    });

    test('PUT without or with a wrong CSRF token: 403 AUTH_CSRF_INVALID, nothing changes', async () => {
      const missing = await admin.put(
        '/api/v1/settings',
        { firewall: { safe_apply_timeout_seconds: 90 } },
        { withoutCsrf: true },
      );
      expect(missing.status).toBe(403);
      expect(missing.body.error.code).toBe('AUTH_CSRF_INVALID');
      const wrong = await admin.put(
        '/api/v1/settings',
        { firewall: { safe_apply_timeout_seconds: 90 } },
        { withoutCsrf: true, headers: { 'X-Firewarden-CSRF': 'A'.repeat(43) } },
      );
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('AUTH_CSRF_INVALID');
      expect(
        (await admin.get('/api/v1/settings')).body.data.settings.firewall.safe_apply_timeout_seconds,
      ).toBe(60);
    });

    test('a viewer may not change settings: 403 AUTH_FORBIDDEN', async () => {
      const answer = await viewer.put('/api/v1/settings', { firewall: { safe_apply_timeout_seconds: 90 } });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('AUTH_FORBIDDEN');
    });

    test('PUT validates: out of range 422 VALIDATION_FAILED, unknown key 400 REQUEST_INVALID, locked 409', async () => {
      const range = await admin.put('/api/v1/settings', { security: { session_idle_timeout_minutes: 0 } });
      expect(range.status).toBe(422);
      expect(range.body.error.code).toBe('VALIDATION_FAILED');
      expect(range.body.error.details.errors[0].path).toBe('security.session_idle_timeout_minutes');
      const unknown = await admin.put('/api/v1/settings', { security: { colour: 'red' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.details.errors).toEqual([
        { path: 'security.colour', message: 'unknown field' },
      ]);
      const fileOnly = await admin.put('/api/v1/settings', { server: { bind: '0.0.0.0' } });
      expect(fileOnly.status).toBe(400);
      const locked = await admin.put('/api/v1/settings', { logging: { level: 'debug' } });
      expect(locked.status).toBe(409);
      expect(locked.body.error).toMatchObject({
        code: 'SETTING_LOCKED',
        details: { keys: ['logging.level'] },
      });
    });

    test('a valid PUT is stored, answered, and audited with old and new values', async () => {
      const answer = await admin.put('/api/v1/settings', {
        firewall: { safe_apply_timeout_seconds: 120 },
        restore_points: { retain_manual: 30 },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data.changed).toEqual([
        'firewall.safe_apply_timeout_seconds',
        'restore_points.retain_manual',
      ]);
      expect((await viewer.get('/api/v1/settings')).body.data.settings.restore_points.retain_manual).toBe(30);
      const audit = await admin.get('/api/v1/audit?action=settings.update&limit=1');
      expect(audit.body.data.entries[0]).toMatchObject({
        actor: 'admin',
        outcome: 'success',
        request_id: answer.headers.get('x-request-id'),
        client: '127.0.0.1',
        detail: {
          changes: [
            { key: 'firewall.safe_apply_timeout_seconds', from: 60, to: 120 },
            { key: 'restore_points.retain_manual', from: 20, to: 30 },
          ],
        },
      });
    });
  });

  describe.skipIf(!available)('users', () => {
    test('an admin lists users; a viewer gets 403', async () => {
      const list = await admin.get('/api/v1/users');
      expect(list.status).toBe(200);
      const names = list.body.data.users.map((user: { username: string }) => user.username);
      expect(names).toEqual(expect.arrayContaining(['admin', 'vera']));
      expect(list.body.data.total).toBe(names.length);
      expect(list.text).not.toContain('argon2');
      expect((await viewer.get('/api/v1/users')).status).toBe(403);
    });

    test('create: 201, the user can sign in; duplicate 409 CONFLICT; short password 422', async () => {
      const created = await admin.post('/api/v1/users', {
        username: 'Olga',
        password: 'olga password 1',
        role: 'viewer',
      });
      expect(created.status).toBe(201);
      expect(created.body.data.user).toMatchObject({ username: 'Olga', role: 'viewer', display_name: null });
      expect((await new ApiClient(server.url).login('olga', 'olga password 1')).status).toBe(200);
      const duplicate = await admin.post('/api/v1/users', {
        username: 'olga',
        password: 'olga password 2',
        role: 'admin',
      });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error.code).toBe('CONFLICT');
      const short = await admin.post('/api/v1/users', {
        username: 'pete',
        password: 'short',
        role: 'viewer',
      });
      expect(short.status).toBe(422);
      expect(short.body.error.details.errors[0]).toMatchObject({
        path: 'password',
        code: 'PASSWORD_TOO_SHORT',
      });
      const role = await admin.post('/api/v1/users', {
        username: 'pete',
        password: 'pete password 1',
        role: 'root',
      });
      expect(role.status).toBe(422);
      expect(role.body.error.details.errors[0].path).toBe('role');
    });
  });

  describe.skipIf(!available)('diagnostics', () => {
    test('checks the installation; the agent is reported missing; no credentials in the answer', async () => {
      const answer = await viewer.get('/api/v1/system/diagnostics');
      expect(answer.status).toBe(200);
      const checks = Object.fromEntries(
        answer.body.data.checks.map((check: { name: string; status: string }) => [check.name, check.status]),
      );
      expect(checks).toMatchObject({
        config: 'ok',
        database: 'ok',
        migrations: 'ok',
        audit_chain: 'ok',
        users: 'ok',
      });
      expect(checks.agent).toBe('warn');
      expect(answer.body.data.runtime).toMatchObject({ version: '0.1.0', test_clock: false });
      expect(answer.text).not.toContain('postgres@');
      expect((await anonymous.get('/api/v1/system/diagnostics')).status).toBe(401);
    });
  });

  describe.skipIf(!available)('audit', () => {
    test('every login attempt is recorded with outcome, client and request id', async () => {
      const failed = await anonymous.post('/api/v1/auth/login', {
        username: 'admin',
        password: 'wrong password 12',
      });
      const page = await admin.get('/api/v1/audit?action=auth.login&outcome=invalid_credentials&limit=500');
      const entry = page.body.data.entries.find(
        (candidate: { request_id: string }) => candidate.request_id === failed.headers.get('x-request-id'),
      );
      expect(entry).toMatchObject({ actor: 'admin', client: '127.0.0.1', outcome: 'invalid_credentials' });
    });

    test('refused state-changing requests are recorded too (the CSRF failure above)', async () => {
      const refused = await admin.put('/api/v1/settings', {}, { withoutCsrf: true });
      expect(refused.status).toBe(403);
      const page = await admin.get('/api/v1/audit?action=PUT%20%2Fapi%2Fv1%2Fsettings&limit=1');
      expect(page.body.data.entries[0]).toMatchObject({
        actor: 'admin',
        outcome: 'denied',
        request_id: refused.headers.get('x-request-id'),
        detail: { status: 403, code: 'AUTH_CSRF_INVALID' },
      });
    });

    test('a method no route answers (PATCH) on a known path is counted as a rejected attempt', async () => {
      const refused = await admin.request('PATCH', '/api/v1/settings');
      expect(refused.status).toBe(405);
      // Refused before any session is read, so anyone can send it: counted, not chained.
      const page = await admin.get('/api/v1/audit?action=PATCH%20%2Fapi%2Fv1%2Fsettings&limit=1');
      expect(page.body.data.entries).toEqual([]);
      const { refusals } = (await admin.get('/api/v1/audit/refusals')).body.data;
      expect(
        refusals.find(
          (refusal: { kind: string }) =>
            refusal.kind === 'PATCH /api/v1/settings rejected METHOD_NOT_ALLOWED',
        ),
      ).toMatchObject({
        count: 1,
        window_seconds: 60,
        sample: { target: '/api/v1/settings', status: 405, request_id: refused.headers.get('x-request-id') },
      });
    });

    test('pages with a before cursor, newest first, chained by hash', async () => {
      const first = await admin.get('/api/v1/audit?limit=2');
      expect(first.body.data.entries).toHaveLength(2);
      const [newer, older] = first.body.data.entries;
      expect(newer.seq).toBeGreaterThan(older.seq);
      expect(newer.prev_hash).toBe(older.hash);
      const second = await admin.get(`/api/v1/audit?limit=2&before=${first.body.data.next_before}`);
      expect(second.body.data.entries[0].seq).toBe(older.seq - 1);
      expect(second.body.data.entries[0].hash).toBe(older.prev_hash);
    });

    test('filters by time; bad query parameters are 400; viewers get 403', async () => {
      const future = await admin.get('/api/v1/audit?since=2999-01-01T00:00:00Z');
      expect(future.body.data).toEqual({ entries: [], next_before: null });
      for (const query of ['limit=abc', 'limit=0', 'since=yesterday', 'colour=red']) {
        const answer = await admin.get(`/api/v1/audit?${query}`);
        expect([400, 422]).toContain(answer.status);
        expect(answer.body.ok).toBe(false);
      }
      expect((await admin.get('/api/v1/audit?colour=red')).body.error.code).toBe('REQUEST_INVALID');
      expect((await viewer.get('/api/v1/audit')).status).toBe(403);
    });
  });

  describe.skipIf(!available)('notifications', () => {
    beforeAll(async () => {
      for (const [index, code] of ['FIRST', 'SECOND', 'THIRD'].entries()) {
        await sql.run(
          'insert into notifications (created_at, severity, code, title, message, details) values ($1, $2, $3, $4, $5, $6)',
          [Date.now() + index, 'warning', code, `title ${code}`, `message ${code}`, null],
        );
      }
    });

    test('lists newest first with an unread count and a cursor', async () => {
      const page = await admin.get('/api/v1/notifications?limit=2');
      expect(page.status).toBe(200);
      expect(page.body.data.items.map((item: { code: string }) => item.code)).toEqual(['THIRD', 'SECOND']);
      expect(page.body.data.items[0]).toMatchObject({
        severity: 'warning',
        title: 'title THIRD',
        read: false,
      });
      expect(page.body.data.unread_count).toBe(3);
      const next = await admin.get(`/api/v1/notifications?limit=2&before=${page.body.data.next_before}`);
      expect(next.body.data.items.map((item: { code: string }) => item.code)).toEqual(['FIRST']);
      expect(next.body.data.next_before).toBeNull();
    });

    test('mark read is per user; ids or all, exactly one of them', async () => {
      const page = await admin.get('/api/v1/notifications');
      const third = page.body.data.items.find((item: { code: string }) => item.code === 'THIRD');
      const marked = await admin.post('/api/v1/notifications/read', { ids: [third.id] });
      expect(marked.body.data).toEqual({ marked: 1 });
      const unread = await admin.get('/api/v1/notifications?unread=true');
      expect(unread.body.data.items.map((item: { code: string }) => item.code)).toEqual(['SECOND', 'FIRST']);
      expect(unread.body.data.unread_count).toBe(2);
      expect((await viewer.get('/api/v1/notifications')).body.data.unread_count).toBe(3);
      expect((await viewer.post('/api/v1/notifications/read', { all: true })).body.data).toEqual({
        marked: 3,
      });
      expect((await viewer.get('/api/v1/notifications?unread=true')).body.data.items).toEqual([]);
      expect((await admin.post('/api/v1/notifications/read', { ids: [1], all: true })).status).toBe(400);
      expect((await admin.post('/api/v1/notifications/read', {})).status).toBe(400);
      expect((await anonymous.get('/api/v1/notifications')).status).toBe(401);
    });
  });

  describe.skipIf(!available)('firewall routes without an agent', () => {
    test('503 FW_AGENT_UNAVAILABLE for a signed-in user; roles still apply', async () => {
      const status = await viewer.get('/api/v1/firewall/status');
      expect(status.status).toBe(503);
      expect(status.body.error).toMatchObject({
        code: 'FW_AGENT_UNAVAILABLE',
        details: { reason: 'socket_missing' },
      });
      const apply = await admin.post('/api/v1/firewall/transactions', { actions: [] });
      expect(apply.body.error.code).toBe('FW_AGENT_UNAVAILABLE');
      expect((await viewer.post('/api/v1/firewall/transactions', { actions: [] })).status).toBe(403);
      expect((await anonymous.get('/api/v1/firewall/rules')).status).toBe(401);
    });
  });
});
