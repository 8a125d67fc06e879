/**
 * @module Where fetched GitHub data is kept: an in-process LRU by default, Redis when
 * `CARDS_CACHE_URL` is set (shared by every instance behind a load balancer).
 */
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** One cached resource: the data, when it was fetched, and the REST ETag to revalidate it. */
export interface CacheEntry<T = unknown> {
  data: T;
  fetchedAt: number;
  etag?: string | undefined;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** Keeps the entry for `retainMs` (longer than its TTL, so stale data can still be served). */
  set(key: string, entry: CacheEntry, retainMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Entries kept in process; a full card's data is a few KB, so this stays well under 100 MB. */
const DEFAULT_MAX_ENTRIES = 20_000;

export function createMemoryStore(maxEntries = DEFAULT_MAX_ENTRIES): CacheStore {
  const lru = new LRUCache<string, CacheEntry>({ max: maxEntries, ttlAutopurge: false });
  return {
    async get(key) {
      return lru.get(key);
    },
    async set(key, entry, retainMs) {
      lru.set(key, entry, { ttl: retainMs });
    },
    async close() {
      lru.clear();
    },
  };
}

const REDIS_PREFIX = 'readme-cards:github:';

/**
 * Redis-backed store. A Redis failure reads as a miss and a skipped write, so the cards keep
 * working (from GitHub) while Redis is down; `onError` reports it.
 */
export function createRedisStore(url: string, onError: (error: unknown) => void = () => {}): CacheStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', onError);
  return {
    async get(key) {
      try {
        const raw = await redis.get(REDIS_PREFIX + key);
        return raw === null ? undefined : (JSON.parse(raw) as CacheEntry);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async set(key, entry, retainMs) {
      try {
        await redis.set(REDIS_PREFIX + key, JSON.stringify(entry), 'PX', Math.max(1, Math.round(retainMs)));
      } catch (error) {
        onError(error);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
