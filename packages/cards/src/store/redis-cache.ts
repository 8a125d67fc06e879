/**
 * @module A CardCache in Redis (JSON values with EX), shared by every instance.
 */
import { Redis } from 'ioredis';
import type { CardCache } from './card-cache.js';

/** Key prefix, so the cache can share a Redis database with other data. */
const prefix = 'readme-cards:cache:';

export function createRedisCache(url: string): CardCache {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  return {
    async get<Value>(key: string) {
      const raw = await redis.get(prefix + key);
      return raw === null ? undefined : (JSON.parse(raw) as Value);
    },
    async set(key, value, ttlSeconds) {
      await redis.set(prefix + key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
    },
    async close() {
      await redis.quit();
    },
  };
}
