/**
 * @module Cache-Control values: long and shared for cards, short for errors, none for counters.
 */

/** How a successful card may be cached. */
export type CachePolicy =
  | { kind: 'shared'; maxAgeSeconds: number; staleWhileRevalidateSeconds: number }
  | { kind: 'no-store' };

const day = 86_400;

/** Cards that depend only on the query: a day fresh, then served stale for a week while refreshed. */
export const staticCardCache: CachePolicy = {
  kind: 'shared',
  maxAgeSeconds: day,
  staleWhileRevalidateSeconds: 7 * day,
};

/**
 * Counters: GitHub's image proxy (Camo) caches for a year when told nothing, so every cache
 * is told not to keep the image.
 */
export const noStoreCache: CachePolicy = { kind: 'no-store' };

/** The `Cache-Control` header of a successful card. */
export function cacheControlFor(policy: CachePolicy): string {
  if (policy.kind === 'no-store') return 'no-cache, no-store, must-revalidate, max-age=0';
  return `public, max-age=${policy.maxAgeSeconds}, s-maxage=${policy.maxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}`;
}

/**
 * The `Cache-Control` header of an error card: a bad query gives the same answer for a
 * while (10 min); upstream trouble (404 may be a new account, 429/5xx) is retried soon.
 */
export function errorCacheControl(status: number): string {
  if (status === 400) return 'public, max-age=600';
  if (status === 404) return 'public, max-age=300';
  if (status >= 500 && status !== 502 && status !== 503 && status !== 504) return 'no-store';
  return 'public, max-age=60';
}
