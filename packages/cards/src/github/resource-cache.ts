/**
 * @module Cached access to GitHub resources: per-resource TTL, single-flight (concurrent requests
 * share one upstream call), stale-while-revalidate (last good data when GitHub fails) and
 * negative caching (a resource GitHub does not have is not asked for again for a few minutes).
 */
import { LRUCache } from 'lru-cache';
import type { CacheEntry, CacheStore } from './cache-store.js';
import { GitHubError } from './errors.js';

/** How long stale data stays available as a fallback when GitHub is down or rate-limited. */
const STALE_RETENTION_MS = 7 * 24 * 3_600_000;

/** Entries whose identity is kept across reads of a shared store. */
const LAST_SEEN_ENTRIES = 10_000;

/**
 * How long "not found" is remembered per resource: long enough that asking again and again for
 * a missing account costs one call, short enough that a new account or repository shows soon.
 */
const NOT_FOUND_TTL_MS = 5 * 60_000;

/** Resources remembered as missing (keys are short: a login or a repository name). */
const NOT_FOUND_ENTRIES = 20_000;

interface Loaded<T> {
  data: T;
  etag?: string | undefined;
}

interface Resource<T> {
  key: string;
  /** Fresh for this long; after it the data is served stale while one refresh runs. */
  ttlMs: number;
  /** Fetches the resource; `previous` carries the ETag and data to reuse on a 304. */
  load(previous: CacheEntry<T> | undefined): Promise<Loaded<T>>;
}

export interface ResourceCache {
  get<T>(resource: Resource<T>): Promise<T>;
}

interface ResourceCacheOptions {
  store: CacheStore;
  now?: () => number;
  /** A background refresh failed; the stale copy stays in use. */
  onRefreshError?: (key: string, error: unknown) => void;
}

export function createResourceCache(options: ResourceCacheOptions): ResourceCache {
  const { store } = options;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<unknown>>();
  // A shared store (Redis) hands back a copy on every read: while an entry is unchanged the
  // first copy is reused, so whatever is derived from the data (drawn cards) stays memoised.
  const lastSeen = new LRUCache<string, CacheEntry>({ max: LAST_SEEN_ENTRIES });
  // Missing resources, with when GitHub said so; read against the injected clock.
  const missing = new LRUCache<string, { error: GitHubError; at: number }>({ max: NOT_FOUND_ENTRIES });

  function refresh<T>(resource: Resource<T>, previous: CacheEntry<T> | undefined): Promise<T> {
    const running = inFlight.get(resource.key);
    if (running !== undefined) return running as Promise<T>;
    const started = (async () => {
      try {
        const loaded = await resource.load(previous);
        const entry: CacheEntry<T> = { data: loaded.data, fetchedAt: now(), etag: loaded.etag };
        await store.set(resource.key, entry, STALE_RETENTION_MS);
        return loaded.data;
      } catch (error) {
        if (error instanceof GitHubError && error.kind === 'not-found')
          missing.set(resource.key, { error, at: now() });
        throw error;
      } finally {
        inFlight.delete(resource.key);
      }
    })();
    inFlight.set(resource.key, started);
    return started;
  }

  return {
    async get<T>(resource: Resource<T>): Promise<T> {
      const gone = missing.get(resource.key);
      if (gone !== undefined) {
        if (now() - gone.at < NOT_FOUND_TTL_MS) throw gone.error;
        missing.delete(resource.key);
      }
      let entry = (await store.get(resource.key)) as CacheEntry<T> | undefined;
      if (entry === undefined) return refresh(resource, undefined);
      const seen = lastSeen.get(resource.key) as CacheEntry<T> | undefined;
      if (seen !== undefined && seen.fetchedAt === entry.fetchedAt) entry = seen;
      else lastSeen.set(resource.key, entry);
      if (now() - entry.fetchedAt >= resource.ttlMs) {
        refresh(resource, entry).catch((error: unknown) => options.onRefreshError?.(resource.key, error));
      }
      return entry.data;
    },
  };
}
