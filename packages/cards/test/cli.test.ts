/**
 * @module The `readme-cards serve` operating contract: listening line, /healthz and cards over
 * real HTTP, clean exit on SIGTERM, a clear message for a bad environment.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startBin } from './support/server.js';

const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'readme-cards-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('readme-cards serve', () => {
  it('prints the listening line, serves cards and /healthz, exits 0 on SIGTERM', async () => {
    const server = await startBin({ CARDS_STORE: join(directory, 'cards.db') });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const card = await fetch(`${server.url}/api/badge?label=cli&message=ok`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const gallery = await fetch(`${server.url}/`);
    expect(gallery.headers.get('content-type')).toContain('text/html');
    expect(await server.stop()).toBe(0);
  });

  it('logs an unreachable Redis cache through its logger and answers with a card', async () => {
    // Port 1 on loopback refuses connections: both the cache and GitHub are down from the start.
    const server = await startBin({
      CARDS_STORE: join(directory, 'redis-down.db'),
      CARDS_CACHE_URL: 'redis://127.0.0.1:1',
      GITHUB_TOKENS: 'token-a',
      GITHUB_API_URL: 'http://127.0.0.1:1',
    });
    const card = await fetch(`${server.url}/stats?username=octocat`);
    expect(card.status).toBe(502);
    expect(card.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    await card.arrayBuffer();
    await expect.poll(server.stderr, { timeout: 10_000 }).toContain('redis connection error');
    expect(server.stderr()).not.toContain('Unhandled error event');
    expect(await server.stop()).toBe(0);
  });

  it('refuses a CARDS_CACHE_URL that is not redis:// with a clear message', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--port', '0'], {
      env: { ...process.env, CARDS_CACHE_URL: 'http://example.com', CARDS_STORE: join(directory, 'x.db') },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('CARDS_CACHE_URL');
  });

  it('rejects an invalid --port', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--port', 'eighty'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('port must be a number from 0 to 65535');
  });
});
