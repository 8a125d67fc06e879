/**
 * @module Where fetched GitHub data is kept: the service's data cache (an in-process LRU, or
 * Redis shared by every instance when `CARDS_CACHE_URL` is set), seen as a store of entries.
 */
import type { CardCache } from '../store/card-cache.js';

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
}

const KEY_PREFIX = 'github:';

/**
 * GitHub entries in the service's data cache. A cache failure (Redis down) reads as a miss and
 * a skipped write, so cards keep coming from GitHub; `onError` reports it.
 */
export function storeInCardCache(cache: CardCache, onError: (error: unknown) => void = () => {}): CacheStore {
  return {
    async get(key) {
      try {
        return await cache.get<CacheEntry>(KEY_PREFIX + key);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async set(key, entry, retainMs) {
      try {
        await cache.set(KEY_PREFIX + key, entry, Math.max(1, Math.ceil(retainMs / 1000)));
      } catch (error) {
        onError(error);
      }
    },
  };
}
