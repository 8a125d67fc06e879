/**
 * @module Tests: the login throttle through the running bin. Per client 5 attempts a minute; a
 * username's failures refuse only the clients that failed for it, so failing addresses never lock
 * the owner out. Clients told apart by X-Forwarded-For from a trusted proxy (loopback, given as
 * CIDR blocks in FIREWARDEN_TRUSTED_PROXIES); from an untrusted peer the header is ignored.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { type RunningServer, runCli, startServer } from './support/running-bin.js';

let installation: Installation;
let server: RunningServer;
let admin: ApiClient;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.createAdmin();
  await installation.createAdmin('carol');
  server = await startServer(['--config', installation.configFile], {
    FIREWARDEN_TRUSTED_PROXIES: '127.0.0.0/8, ::1/128',
  });
  admin = new ApiClient(server.url);
  // From its own address, so the tests below do not count against it.
  const first = await admin.login('admin', adminPassword);
  expect(first.status).toBe(200);
});

afterAll(async () => {
  await server.stop();
  await installation.remove();
});

const attempt = (client: string, username: string, password = 'wrong password 12', url = server.url) =>
  new ApiClient(url).post(
    '/api/v1/auth/login',
    { username, password },
    { headers: { 'x-forwarded-for': client } },
  );

describe('per user', () => {
  test('five wrong passwords from five addresses do not lock the owner out: the right one from a sixth is 200', async () => {
    for (let index = 1; index <= 5; index++) {
      expect((await attempt(`198.51.100.${index}`, 'carol')).status).toBe(401);
    }
    expect((await attempt('198.51.100.99', 'carol', adminPassword)).status).toBe(200);
  });

  test('after ten failures for a username, the addresses that failed get 429, a clean one signs in', async () => {
    for (let index = 1; index <= 10; index++) {
      expect((await attempt(`192.0.2.${index}`, 'admin')).status).toBe(401);
    }
    const limited = await attempt('192.0.2.3', 'admin', adminPassword);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('AUTH_RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.body.error.details).toEqual({ retry_after_seconds: retryAfter });
    expect((await attempt('192.0.2.200', 'admin', adminPassword)).status).toBe(200);
    // `firewarden user unlock` (another process) lifts it for the failing address too.
    const unlocked = await runCli(['user', 'unlock', 'admin', '--config', installation.configFile]);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect((await attempt('192.0.2.3', 'admin', adminPassword)).status).toBe(200);
  });
});

describe('per client', () => {
  test('ten attempts from one address: from the 6th that address is 429 (even with the right password) while another gets in', async () => {
    const statuses = [];
    for (let index = 1; index <= 10; index++) statuses.push((await attempt('203.0.113.7', 'admin')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    const limited = await attempt('203.0.113.7', 'admin', adminPassword);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('AUTH_RATE_LIMITED');
    expect((await attempt('203.0.113.8', 'admin', adminPassword)).status).toBe(200);
  });

  test('rate-limited attempts are counted per minute with a sample, not chained one by one', async () => {
    const chained = await admin.get('/api/v1/audit?action=auth.login&outcome=rate_limited');
    expect(chained.body.data.entries).toEqual([]);
    const { refusals } = (await admin.get('/api/v1/audit/refusals')).body.data;
    const limited = refusals.filter(
      (refusal: { kind: string }) => refusal.kind === 'auth.login rate_limited',
    );
    expect(
      limited.reduce((sum: number, refusal: { count: number }) => sum + refusal.count, 0),
    ).toBeGreaterThanOrEqual(1);
    expect(limited[0].sample.client).toMatch(/^(192\.0\.2\.3|203\.0\.113\.7)$/);
  });
});

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  test('is ignored: five spoofed addresses share the peer limit, so a sixth is 429 even with the right password', async () => {
    const spoofed = (await createInstallation('sqlite'))!;
    await spoofed.writeConfig({ server: { trusted_proxies: ['10.0.0.0/8'] } });
    await spoofed.createAdmin();
    const direct = await startServer(['--config', spoofed.configFile]);
    try {
      for (let index = 1; index <= 5; index++) {
        expect((await attempt(`198.51.100.${index}`, 'admin', undefined, direct.url)).status).toBe(401);
      }
      expect((await attempt('198.51.100.77', 'admin', adminPassword, direct.url)).status).toBe(429);
    } finally {
      await direct.stop();
      await spoofed.remove();
    }
  });
});
