/**
 * @module Cached access to GitHub resources: per-resource TTL, single-flight (concurrent requests
 * share one upstream call) and stale-while-revalidate (last good data when GitHub fails).
 */
import type { CacheEntry, CacheStore } from './cache-store.js';

/** How long stale data stays available as a fallback when GitHub is down or rate-limited. */
export const STALE_RETENTION_MS = 7 * 24 * 3_600_000;

export interface Loaded<T> {
  data: T;
  etag?: string | undefined;
}

export interface Resource<T> {
  key: string;
  /** Fresh for this long; after it the data is served stale while one refresh runs. */
  ttlMs: number;
  /** Fetches the resource; `previous` carries the ETag and data to reuse on a 304. */
  load(previous: CacheEntry<T> | undefined): Promise<Loaded<T>>;
}

export interface ResourceCache {
  get<T>(resource: Resource<T>): Promise<T>;
  /** Upstream loads started so far, per key (tests and metrics). */
  readonly loads: ReadonlyMap<string, number>;
}

export interface ResourceCacheOptions {
  store: CacheStore;
  now?: () => number;
  /** A background refresh failed; the stale copy stays in use. */
  onRefreshError?: (key: string, error: unknown) => void;
}

export function createResourceCache(options: ResourceCacheOptions): ResourceCache {
  const { store } = options;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<unknown>>();
  const loads = new Map<string, number>();

  function refresh<T>(resource: Resource<T>, previous: CacheEntry<T> | undefined): Promise<T> {
    const running = inFlight.get(resource.key);
    if (running !== undefined) return running as Promise<T>;
    loads.set(resource.key, (loads.get(resource.key) ?? 0) + 1);
    const started = (async () => {
      try {
        const loaded = await resource.load(previous);
        const entry: CacheEntry<T> = { data: loaded.data, fetchedAt: now(), etag: loaded.etag };
        await store.set(resource.key, entry, STALE_RETENTION_MS);
        return loaded.data;
      } finally {
        inFlight.delete(resource.key);
      }
    })();
    inFlight.set(resource.key, started);
    return started;
  }

  return {
    loads,
    async get<T>(resource: Resource<T>): Promise<T> {
      const entry = (await store.get(resource.key)) as CacheEntry<T> | undefined;
      if (entry === undefined) return refresh(resource, undefined);
      if (now() - entry.fetchedAt >= resource.ttlMs) {
        refresh(resource, entry).catch((error: unknown) => options.onRefreshError?.(resource.key, error));
      }
      return entry.data;
    },
  };
}
