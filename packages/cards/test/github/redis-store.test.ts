/**
 * @module GitHub data in the Redis cache (`CARDS_CACHE_URL`): shared between instances, so a
 * second instance answers from the first one's fetch; a Redis outage reads as a miss.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeInCardCache } from '../../src/github/cache-store.js';
import { createGitHubData } from '../../src/github/data.js';
import type { CardCache } from '../../src/store/card-cache.js';
import { createRedisCache } from '../../src/store/redis-cache.js';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';

const REDIS_URL = process.env.CARDS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/5';

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
  try {
    await probe.connect();
    await probe.flushdb();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await redisAvailable();
if (!available && process.env.CI) throw new Error(`Redis is required on CI (${REDIS_URL})`);
if (!available) console.warn(`skipping Redis cache tests: no Redis at ${REDIS_URL}`);

describe.runIf(available)('GitHub data in Redis', () => {
  let fake: FakeGitHub;
  beforeAll(async () => {
    fake = await startFakeGitHub(fixtures, { now: () => FIXED_NOW });
  });
  afterAll(() => fake.close());

  it('shares fetched data between instances', async () => {
    const caches = [createRedisCache(REDIS_URL), createRedisCache(REDIS_URL)];
    const [first, second] = caches.map((cache) =>
      createGitHubData({
        apiUrl: fake.url,
        tokens: ['t1'],
        now: () => FIXED_NOW,
        store: storeInCardCache(cache),
      }),
    );
    try {
      expect((await first?.userStats('ada'))?.stars).toBe(157);
      expect((await second?.userStats('ADA'))?.stars).toBe(157);
      expect(fake.count('userStats')).toBe(1);
      // Redis hands back copies; an unchanged entry keeps its identity (drawn cards stay memoised).
      expect(await second?.userStats('ada')).toBe(await second?.userStats('ada'));
    } finally {
      await Promise.all(caches.map((cache) => cache.close()));
    }
  });
});

describe('GitHub data in a failing cache', () => {
  it('reads as a miss and skips the write when the cache is unreachable', async () => {
    const errors: unknown[] = [];
    const down = new Error('cache down');
    const broken: CardCache = {
      get: () => Promise.reject(down),
      set: () => Promise.reject(down),
      close: async () => {},
    };
    const store = storeInCardCache(broken, (error) => errors.push(error));
    expect(await store.get('anything')).toBeUndefined();
    await store.set('anything', { data: 1, fetchedAt: 0 }, 1_000);
    expect(errors).toEqual([down, down]);
  });
});
