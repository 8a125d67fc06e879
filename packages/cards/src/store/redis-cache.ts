/**
 * @module A CardCache in Redis (JSON values with EX), shared by every instance. ioredis loads on
 * first use, so processes without a Redis cache never pay for it.
 */
import type { Redis } from 'ioredis';
import type { CardCache } from './card-cache.js';
import { connectRedis, type RedisErrorHandler } from './redis-connection.js';

/** Key prefix, so the cache can share a Redis database with other data. */
const prefix = 'readme-cards:cache:';

/** `onError` receives connection errors (log them); requests meanwhile fail and fall back. */
export function createRedisCache(url: string, onError?: RedisErrorHandler): CardCache {
  let connection: Promise<Redis> | undefined;
  const redis = () => {
    connection ??= connectRedis(url, 2, onError);
    return connection;
  };
  return {
    async get<Value>(key: string) {
      const raw = await (await redis()).get(prefix + key);
      return raw === null ? undefined : (JSON.parse(raw) as Value);
    },
    async set(key, value, ttlSeconds) {
      await (await redis()).set(
        prefix + key,
        JSON.stringify(value),
        'EX',
        Math.max(1, Math.ceil(ttlSeconds)),
      );
    },
    async close() {
      if (connection) await (await connection).quit();
    },
  };
}
