/**
 * @module The data cache endpoints use for upstream answers (GitHub data): an in-process LRU
 * by default, or Redis shared by several instances (`CARDS_CACHE_URL`).
 */
import { LRUCache } from 'lru-cache';

export interface CardCache {
  /** The cached value, or undefined when absent or expired. */
  get<Value>(key: string): Promise<Value | undefined>;
  /** Stores a JSON-serialisable value for `ttlSeconds`. */
  set<Value>(key: string, value: Value, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface MemoryCacheOptions {
  /** Most entries kept; default 5,000. */
  maxEntries?: number;
}

/** In-process LRU with per-entry TTL. */
export function createMemoryCache(options: MemoryCacheOptions = {}): CardCache {
  const lru = new LRUCache<string, { value: unknown }>({
    max: options.maxEntries ?? 5_000,
    ttlAutopurge: false,
  });
  return {
    async get<Value>(key: string) {
      return lru.get(key)?.value as Value | undefined;
    },
    async set(key, value, ttlSeconds) {
      lru.set(key, { value }, { ttl: ttlSeconds * 1000 });
    },
    async close() {
      lru.clear();
    },
  };
}
