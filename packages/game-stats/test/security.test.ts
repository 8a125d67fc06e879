/**
 * @module Tests: API key, IP allow-list (CIDR, IPv4-mapped IPv6), trusted X-Forwarded-For, CORS switched off
 * and the per-IP rate limit, through HTTP against the running bin started with a config file.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let guarded: RunningBin;
let noProxy: RunningBin;
const key = 'correct horse battery staple';

beforeAll(async () => {
  server = await createServerFolder({ players: 40, seed: 9 });
  await writeFile(
    path.join(server.dir, 'guarded.yml'),
    [
      'server-dir: .',
      'security:',
      '  enable-api-key: true',
      '  api-key: not-this-one',
      '  enable-cors: false',
      '  enable-ip-whitelist: true',
      '  allowed-ips: ["::ffff:127.0.0.1", "10.0.0.0/8", "2001:db8::/32"]',
      '  trusted-proxies: ["127.0.0.1"]',
      'rate-limit:',
      '  requests: 5',
      '  window-seconds: 60',
    ].join('\n'),
  );
  await writeFile(
    path.join(server.dir, 'no-proxy.yml'),
    ['security:', '  enable-ip-whitelist: true', '  allowed-ips: ["10.0.0.0/8"]'].join('\n'),
  );
  // The environment variable wins over security.api-key of the file.
  guarded = await startBin(['--config', path.join(server.dir, 'guarded.yml')], { GAME_STATS_API_KEY: key });
  noProxy = await startBin(['--config', path.join(server.dir, 'no-proxy.yml'), '--server-dir', server.dir]);
});

afterAll(async () => {
  await guarded.stop();
  await noProxy.stop();
  await server.remove();
});

const withKey = (headers: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${key}`, ...headers },
});

describe('API key', () => {
  test('missing or wrong Bearer key -> 401 with the spec body; right key (any scheme case) -> 200', async () => {
    const missing = await getJson(`${guarded.url}/api/health`);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, status: 401, error: 'Unauthorized' });
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    const wrongFileKey = await getJson(`${guarded.url}/api`, {
      headers: { authorization: 'Bearer not-this-one' },
    });
    expect(wrongFileKey.status).toBe(401);
    const notBearer = await getJson(`${guarded.url}/api`, { headers: { authorization: `Basic ${key}` } });
    expect(notBearer.status).toBe(401);
    const prefix = await getJson(`${guarded.url}/api`, {
      headers: { authorization: `Bearer ${key.slice(0, -1)}` },
    });
    expect(prefix.status).toBe(401);
    expect((await getJson(`${guarded.url}/api`, withKey({ 'x-forwarded-for': '10.0.0.2' }))).status).toBe(
      200,
    );
    const lower = await getJson(`${guarded.url}/api`, {
      headers: { authorization: `bearer ${key}`, 'x-forwarded-for': '10.0.0.3' },
    });
    expect(lower.status).toBe(200);
    const health = await getJson(`${guarded.url}/api/health`, withKey({ 'x-forwarded-for': '10.0.0.4' }));
    expect(health.body.features.api_auth_enabled).toBe(true);
  });
});

describe('IP allow-list', () => {
  test('IPv4 peer matches an IPv4-mapped IPv6 entry; CIDR ranges match forwarded clients of a trusted proxy', async () => {
    expect((await getJson(`${guarded.url}/api`, withKey())).status).toBe(200);
    expect((await getJson(`${guarded.url}/api`, withKey({ 'x-forwarded-for': '10.200.3.4' }))).status).toBe(
      200,
    );
    expect((await getJson(`${guarded.url}/api`, withKey({ 'x-forwarded-for': '2001:db8::7' }))).status).toBe(
      200,
    );
    const outside = await getJson(`${guarded.url}/api`, withKey({ 'x-forwarded-for': '203.0.113.9' }));
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ success: false, status: 403, error: 'IP not allowed' });
  });

  test('the right-most untrusted hop is the client (a spoofed left-most entry is ignored)', async () => {
    const spoofed = await getJson(
      `${guarded.url}/api`,
      withKey({ 'x-forwarded-for': '10.0.0.1, 198.51.100.4' }),
    );
    expect(spoofed.status).toBe(403);
  });

  test('the allow-list answers before the API key: a denied IP gets 403 even without a key', async () => {
    const { status } = await getJson(`${guarded.url}/api`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(status).toBe(403);
  });

  test('without trusted proxies X-Forwarded-For is ignored', async () => {
    const { status } = await getJson(`${noProxy.url}/api`, { headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(status).toBe(403);
  });
});

describe('CORS off', () => {
  test('OPTIONS is just another method (405) and no CORS headers are sent', async () => {
    const preflight = await getJson(`${guarded.url}/api/players`, { method: 'OPTIONS', ...withKey() });
    expect(preflight.status).toBe(405);
    const normal = await fetch(`${guarded.url}/api`, withKey({ 'x-forwarded-for': '10.0.0.5' }));
    expect(normal.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  test('fixed window per client: X-RateLimit-* on every answer, 429 with Retry-After past the limit', async () => {
    const client = withKey({ 'x-forwarded-for': '10.9.9.9' });
    const remaining: string[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${guarded.url}/api/players`, client);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const limited = await getJson(`${guarded.url}/api/players`, client);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, status: 429, error: 'Rate limit exceeded' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another client has its own window.
    expect(
      (await getJson(`${guarded.url}/api/players`, withKey({ 'x-forwarded-for': '10.9.9.8' }))).status,
    ).toBe(200);
  });
});
