/**
 * @module Tests: the login rate limit (5 per minute by default) per client and per user, through the
 * running bin; clients told apart by X-Forwarded-For from a trusted proxy (loopback here).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { type RunningServer, startServer } from './support/running-bin.js';

let installation: Installation;
let server: RunningServer;
let admin: ApiClient;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.writeConfig({ server: { trusted_proxies: ['127.0.0.1'] } });
  await installation.createAdmin();
  await installation.createAdmin('carol');
  server = await startServer(['--config', installation.configFile]);
  admin = new ApiClient(server.url);
  // From its own address, so the tests below do not count against it.
  const first = await admin.login('admin', adminPassword);
  expect(first.status).toBe(200);
});

afterAll(async () => {
  await server.stop();
  await installation.remove();
});

const attempt = (client: string, username: string, password = 'wrong password 12') =>
  new ApiClient(server.url).post(
    '/api/v1/auth/login',
    { username, password },
    { headers: { 'x-forwarded-for': client } },
  );

describe('per user', () => {
  test('the 6th attempt within a minute for one user is 429 AUTH_RATE_LIMITED, whatever the client and password', async () => {
    for (let index = 1; index <= 5; index++) {
      expect((await attempt(`198.51.100.${index}`, 'carol')).status).toBe(401);
    }
    const limited = await attempt('198.51.100.99', 'carol', adminPassword);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('AUTH_RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.error.details).toEqual({ retry_after_seconds: retryAfter });
    // Another user from a fresh client is not affected.
    expect((await attempt('198.51.100.100', 'admin', adminPassword)).status).toBe(200);
  });
});

describe('per client', () => {
  test('the 6th attempt within a minute from one client is 429, whatever the username', async () => {
    for (let index = 1; index <= 5; index++) {
      expect((await attempt('203.0.113.7', `user${index}`)).status).toBe(401);
    }
    const limited = await attempt('203.0.113.7', 'admin', adminPassword);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('AUTH_RATE_LIMITED');
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
    expect(limited[0].sample.client).toMatch(/^(198\.51\.100\.99|203\.0\.113\.7)$/);
  });
});
