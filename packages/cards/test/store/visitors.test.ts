/**
 * @module "No increment is ever lost": 1,000 concurrent requests spread over two running
 * instances of the real server sharing one store (SQLite file, PostgreSQL, Redis), then a
 * restart, for each store. PostgreSQL and Redis run on loopback; each run uses its own key.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningBin, startBin } from '../support/server.js';
import { available, postgresUp, postgresUrl, redisUp, redisUrl } from '../support/services.js';

const requests = 1_000;

function countIn(svg: string): number {
  const match = /<title id="title">visitors: ([\d,]+)<\/title>/.exec(svg);
  if (!match) throw new Error(`no count in ${svg.slice(0, 200)}`);
  return Number(match[1]!.replaceAll(',', ''));
}

async function visit(server: RunningBin, key: string): Promise<number> {
  const response = await fetch(`${server.url}/visitors?username=${encodeURIComponent(key)}`);
  expect(response.status).toBe(200);
  return countIn(await response.text());
}

async function proveNoLostIncrement(store: string, key = `test-${randomUUID()}`): Promise<void> {
  const env = { CARDS_STORE: store };
  const first = await startBin(env);
  const second = await startBin(env);
  try {
    const counts = await Promise.all(
      Array.from({ length: requests }, (_, index) => visit(index % 2 ? second : first, key)),
    );
    // Every request got its own number: none lost, none counted twice.
    expect(counts.toSorted((a, b) => a - b)).toEqual(
      Array.from({ length: requests }, (_, index) => index + 1),
    );
  } finally {
    expect(await first.stop()).toBe(0);
    expect(await second.stop()).toBe(0);
  }
  const restarted = await startBin(env);
  try {
    // HEAD reads the count (peek) without adding a visit.
    const head = await fetch(`${restarted.url}/visitors?username=${encodeURIComponent(key)}`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(await visit(restarted, key)).toBe(requests + 1);
  } finally {
    expect(await restarted.stop()).toBe(0);
  }
}

describe('visitor counter stores', () => {
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-visitors-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('SQLite file (two processes sharing it) loses no increment across a restart', async () => {
    await proveNoLostIncrement(join(directory, 'nested', 'cards.db'));
  }, 120_000);

  it.runIf(available('PostgreSQL', postgresUp))(
    'PostgreSQL loses no increment across a restart',
    async () => {
      const key = `test-${randomUUID()}`;
      await proveNoLostIncrement(postgresUrl, key);
      const client = new pg.Client(postgresUrl);
      await client.connect();
      await client.query('DELETE FROM visitor_counts WHERE key = $1', [key]);
      await client.end();
    },
    120_000,
  );

  it.runIf(available('Redis', redisUp))(
    'Redis loses no increment across a restart',
    async () => {
      const key = `test-${randomUUID()}`;
      await proveNoLostIncrement(redisUrl, key);
      const redis = new Redis(redisUrl);
      await redis.del(`readme-cards:visitors:${key}`);
      await redis.quit();
    },
    120_000,
  );
});
