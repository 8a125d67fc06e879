/**
 * @module Two caches in front of each other: a near one (the process's or isolate's memory)
 * answering most reads, a far one (the Cache API, Redis) shared by every instance. Entries
 * read from the far cache are kept near for a short while, so a change made by another
 * instance shows here within that time.
 */
import type { CardCache } from './card-cache.js';

interface TieredCacheOptions {
  /** Longest an entry stays in the near cache, in seconds; default 60. */
  nearTtlSeconds?: number;
}

/**
 * Reads near first, then far (copying what it finds near); writes both.
 *
 * @example createTieredCache(createMemoryCache({ maxEntries: 1_000 }), createCacheApiCache(cache))
 */
export function createTieredCache(
  near: CardCache,
  far: CardCache,
  options: TieredCacheOptions = {},
): CardCache {
  const nearTtl = options.nearTtlSeconds ?? 60;
  return {
    async get<Value>(key: string) {
      const close = await near.get<Value>(key);
      if (close !== undefined) return close;
      const value = await far.get<Value>(key);
      if (value !== undefined) await near.set(key, value, nearTtl);
      return value;
    },
    async set(key, value, ttlSeconds) {
      await Promise.all([
        near.set(key, value, Math.min(ttlSeconds, nearTtl)),
        far.set(key, value, ttlSeconds),
      ]);
    },
    async close() {
      await Promise.all([near.close(), far.close()]);
    },
  };
}
