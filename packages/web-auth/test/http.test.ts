/**
 * @module The Hono middleware through a small app on SQLite and PostgreSQL, with real requests via
 * `app.request`, once with the separate middleware and once with `sessionGuard`: session loading
 * and AUTH_REQUIRED, CSRF missing / wrong / right, the Host allow-list and the Origin rules for
 * mutations and WebSocket upgrades, all written through the product's error writer.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthErrorWriter,
  clearSessionCookie,
  createWebAuth,
  hostAllowList,
  loadSession,
  originCheck,
  requireCsrf,
  requireSession,
  serializeSessionCookie,
  sessionGuard,
  type WebAuth,
  type WebAuthVariables,
} from '../src/index.js';
import { cheapArgon2 } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

const port = 7443;
const base = `http://localhost:${port}`;
const cookieName = 'firewarden_session';
const csrfHeader = 'X-Firewarden-CSRF';
const password = 'the right password';

const onError: AuthErrorWriter = (c, status, code, message) =>
  c.json({ ok: false, error: { code, message } }, status);

/** The Origin, session and CSRF checks as three middleware, or as `sessionGuard`: both must hold every rule. */
const wirings = ['separate', 'sessionGuard'] as const;

function buildApp(auth: WebAuth, wiring: (typeof wirings)[number]) {
  const app = new Hono<{ Variables: WebAuthVariables }>();
  const hosts = { port, allowedHosts: ['firewarden.example.com'] };
  const allowedOrigins = ['https://console.example.net'];
  app.use(hostAllowList({ ...hosts, onError }));
  if (wiring === 'sessionGuard') {
    app.use(sessionGuard({ hosts, allowedOrigins, onError, auth, cookieName, csrfHeaderName: csrfHeader }));
  } else {
    app.use(originCheck({ hosts, allowedOrigins, onError }));
    app.use(loadSession({ auth, cookieName }));
    app.use(requireCsrf({ headerName: csrfHeader, onError }));
  }
  app.get('/health', (c) => c.json({ ok: true }));
  app.post('/login', async (c) => {
    const body = await c.req.json<{ username: string; password: string }>();
    const result = await auth.login({ ...body, client: '127.0.0.1' });
    if (result.kind === 'rate_limited') {
      c.header('Retry-After', String(result.retryAfterSeconds));
      return onError(c, 429, 'AUTH_RATE_LIMITED', 'too many attempts');
    }
    if (result.kind !== 'ok')
      return onError(c, 401, 'AUTH_INVALID_CREDENTIALS', 'wrong username or password');
    c.header('Set-Cookie', serializeSessionCookie(cookieName, result.token));
    return c.json({ ok: true, csrf: result.csrf });
  });
  app.use('/api/*', requireSession({ onError }));
  app.get('/api/me', (c) =>
    c.json({ ok: true, username: c.get('auth')?.user.username, csrf: c.get('auth')?.csrf }),
  );
  app.post('/api/things', (c) => c.json({ ok: true, created: true }, 201));
  app.get('/ws', (c) => c.text('upgrade would happen here'));
  app.post('/logout', async (c) => {
    await auth.logout({ token: c.get('auth')?.token });
    c.header('Set-Cookie', clearSessionCookie(cookieName));
    return c.json({ ok: true });
  });
  return app;
}

describe.each(databaseKinds.flatMap((kind) => wirings.map((wiring) => [kind, wiring] as const)))(
  'Hono middleware on %s, %s',
  (kind, wiring) => {
    let database: TestDatabase;
    let app: ReturnType<typeof buildApp>;
    let cookie: string;
    let csrf: string;

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      const auth = createWebAuth({ db: database.db, argon2: cheapArgon2 });
      await auth.users.create({ username: 'ivan', password, role: 'admin' });
      app = buildApp(auth, wiring);
      const response = await app.request(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ username: 'ivan', password }),
      });
      expect(response.status).toBe(200);
      const setCookie = response.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^firewarden_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
      cookie = setCookie.split(';')[0]!;
      csrf = ((await response.json()) as { csrf: string }).csrf;
    });
    afterAll(async () => database?.close());

    const errorCode = async (response: Response) =>
      ((await response.json()) as { error: { code: string } }).error.code;

    it('answers 401 AUTH_REQUIRED without a session, and loads the session from the cookie', async () => {
      const anonymous = await app.request(`${base}/api/me`);
      expect(anonymous.status).toBe(401);
      expect(await errorCode(anonymous)).toBe('AUTH_REQUIRED');
      const forged = await app.request(`${base}/api/me`, {
        headers: { cookie: `${cookieName}=${'A'.repeat(43)}` },
      });
      expect(forged.status).toBe(401);
      const me = await app.request(`${base}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ ok: true, username: 'ivan', csrf });
    });

    it('refuses a mutation under a session with the CSRF header missing or wrong, accepts the right one', async () => {
      const post = (headers: Record<string, string>) =>
        app.request(`${base}/api/things`, { method: 'POST', headers: { cookie, ...headers } });
      const missing = await post({});
      expect(missing.status).toBe(403);
      expect(await errorCode(missing)).toBe('AUTH_CSRF_INVALID');
      const wrong = await post({ [csrfHeader]: `${csrf.slice(0, -1)}x` });
      expect(wrong.status).toBe(403);
      expect(await errorCode(wrong)).toBe('AUTH_CSRF_INVALID');
      const huge = await post({ [csrfHeader]: 'x'.repeat(10_000) });
      expect(huge.status).toBe(403);
      const right = await post({ [csrfHeader]: csrf });
      expect(right.status).toBe(201);
      expect(await right.json()).toEqual({ ok: true, created: true });
      // GET needs no token.
      expect((await app.request(`${base}/api/me`, { headers: { cookie } })).status).toBe(200);
    });

    it('refuses another session’s CSRF token', async () => {
      const other = await app.request(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ivan', password }),
      });
      const otherCsrf = ((await other.json()) as { csrf: string }).csrf;
      const response = await app.request(`${base}/api/things`, {
        method: 'POST',
        headers: { cookie, [csrfHeader]: otherCsrf },
      });
      expect(response.status).toBe(403);
    });

    it.each([
      ['localhost with the port', `localhost:${port}`, 200],
      ['127.0.0.1 with the port', `127.0.0.1:${port}`, 200],
      ['[::1] with the port', `[::1]:${port}`, 200],
      ['upper-case localhost', `LOCALHOST:${port}`, 200],
      ['a configured name without port', 'firewarden.example.com', 200],
      ['a configured name with the port', `firewarden.example.com:${port}`, 200],
      ['a configured name with another port', 'firewarden.example.com:8080', 403],
      ['localhost on another port', 'localhost:3000', 403],
      ['localhost without port', 'localhost', 403],
      ['a rebinding name', `attacker.example:${port}`, 403],
      ['a suffix trick', `localhost.attacker.example:${port}`, 403],
      ['an unbracketed IPv6', `::1:${port}`, 403],
      ['a port out of range', 'localhost:99999', 403],
      ['an empty Host', '', 403],
    ])('Host: %s -> %i', async (_, host, status) => {
      const response = await app.request(`${base}/health`, { headers: { host } });
      expect(response.status).toBe(status);
      if (status === 403) expect(await errorCode(response)).toBe('HOST_NOT_ALLOWED');
    });

    it.each([
      ['absent (curl, CLI)', undefined, 201],
      ['the same origin', base, 201],
      ['127.0.0.1 with the port', `http://127.0.0.1:${port}`, 201],
      ['https on a configured name', 'https://firewarden.example.com', 201],
      ['a configured exact origin', 'https://console.example.net', 201],
      ['another local port (a dev server)', 'http://localhost:3000', 403],
      ['a rebinding name', `http://attacker.example:${port}`, 403],
      ['null', 'null', 403],
      ['a non-http scheme', `file://localhost:${port}`, 403],
      ['an origin with a path', `${base}/x`, 403],
      ['garbage', 'not a url', 403],
    ])('Origin on a mutation: %s -> %i', async (_, origin, status) => {
      const headers: Record<string, string> = { cookie, [csrfHeader]: csrf };
      if (origin !== undefined) headers.origin = origin;
      const response = await app.request(`${base}/api/things`, { method: 'POST', headers });
      expect(response.status).toBe(status);
      if (status === 403) expect(await errorCode(response)).toBe('ORIGIN_NOT_ALLOWED');
    });

    it('checks Origin on WebSocket upgrades and requires one there', async () => {
      const upgrade = (origin?: string) =>
        app.request(`${base}/ws`, {
          headers: { upgrade: 'websocket', connection: 'Upgrade', ...(origin ? { origin } : {}) },
        });
      expect((await upgrade(base)).status).toBe(200);
      expect((await upgrade('http://evil.example')).status).toBe(403);
      expect((await upgrade()).status).toBe(403);
      // A plain GET from another origin is not a mutation: not checked.
      expect(
        (await app.request(`${base}/health`, { headers: { origin: 'http://evil.example' } })).status,
      ).toBe(200);
    });

    it('login throttling reaches the product as 429 AUTH_RATE_LIMITED with Retry-After', async () => {
      let response: Response | undefined;
      for (let index = 0; index < 6; index++) {
        response = await app.request(`${base}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'mallory', password: 'guess guess guess' }),
        });
      }
      expect(response?.status).toBe(429);
      expect(response?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await errorCode(response!)).toBe('AUTH_RATE_LIMITED');
    });

    it('requireCsrf without loadSession before it fails loudly instead of letting everything through', async () => {
      const miswired = new Hono<{ Variables: WebAuthVariables }>();
      miswired.use(requireCsrf({ headerName: csrfHeader, onError }));
      miswired.post('/x', (c) => c.text('done'));
      miswired.onError((error, c) => c.text(error.message, 500));
      const response = await miswired.request(`${base}/x`, { method: 'POST' });
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('requireCsrf must come after loadSession');
    });

    it('logout ends the session server-side and clears the cookie', async () => {
      const response = await app.request(`${base}/logout`, {
        method: 'POST',
        headers: { cookie, [csrfHeader]: csrf },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toBe(
        `${cookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
      );
      expect((await app.request(`${base}/api/me`, { headers: { cookie } })).status).toBe(401);
    });
  },
);
