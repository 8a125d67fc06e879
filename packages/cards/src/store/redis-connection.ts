/**
 * @module Opens an ioredis connection whose errors reach the caller instead of the console.
 */
import type { Redis } from 'ioredis';

/** Called on each connection error (ioredis keeps reconnecting with backoff meanwhile). */
export type RedisErrorHandler = (error: Error) => void;

/**
 * Connects to `url`, loading ioredis on first use so processes without Redis never pay for it.
 * Without an `error` listener ioredis prints "Unhandled error event" on every reconnect attempt.
 */
export async function connectRedis(
  url: string,
  maxRetriesPerRequest: number,
  onError: RedisErrorHandler = () => {},
): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest });
  redis.on('error', onError);
  return redis;
}
