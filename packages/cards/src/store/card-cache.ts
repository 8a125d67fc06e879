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
  /** Most bytes kept (values measured as JSON, keys included); default 64 MiB. */
  maxBytes?: number;
}

/** In-process LRU with per-entry TTL, bounded by entries and by bytes. */
export function createMemoryCache(options: MemoryCacheOptions = {}): CardCache {
  const lru = new LRUCache<string, { value: unknown; bytes: number }>({
    max: options.maxEntries ?? 5_000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.bytes,
    ttlAutopurge: false,
  });
  return {
    async get<Value>(key: string) {
      return lru.get(key)?.value as Value | undefined;
    },
    async set(key, value, ttlSeconds) {
      // Measured once when stored (a write follows an upstream call, so it is rare): UTF-16, 2 bytes a character.
      const bytes = 2 * (key.length + (JSON.stringify(value)?.length ?? 0)) + 128;
      lru.set(key, { value, bytes }, { ttl: ttlSeconds * 1000 });
    },
    async close() {
      lru.clear();
    },
  };
}
