/**
 * @module A CardCache in the web Cache API (Cloudflare Workers' `caches`): JSON values kept as
 * responses with `max-age`, in the data centre that served the request.
 */
import type { CardCache } from './card-cache.js';

/** The part of a web `Cache` this store uses. */
export interface WebCache {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
}

/**
 * The Cache API keys entries by URL; this origin is never fetched, it only names the entries
 * (a reserved `.invalid` name, RFC 2606, so it can never collide with a real site).
 */
const keyOrigin = 'https://readme-cards-cache.invalid/';

/**
 * Keeps upstream data in `cache` (e.g. `await caches.open('readme-cards')`). An entry
 * expires after its TTL; a value that no longer parses reads as a miss.
 *
 * @example createCacheApiCache(await caches.open('readme-cards'))
 */
export function createCacheApiCache(cache: WebCache): CardCache {
  const urlOf = (key: string) => keyOrigin + encodeURIComponent(key);
  return {
    async get<Value>(key: string) {
      const response = await cache.match(urlOf(key));
      if (response === undefined) return undefined;
      try {
        return (await response.json()) as Value;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlSeconds) {
      const response = new Response(JSON.stringify(value), {
        headers: {
          'content-type': 'application/json',
          'cache-control': `max-age=${Math.max(1, Math.ceil(ttlSeconds))}`,
        },
      });
      await cache.put(urlOf(key), response);
    },
    async close() {
      // The runtime owns the cache.
    },
  };
}
