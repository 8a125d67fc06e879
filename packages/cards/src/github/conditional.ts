/**
 * @module Conditional REST reads: a 304 (free of rate limit) keeps the cached copy.
 */
import type { CacheEntry } from './cache-store.js';
import type { RestResult } from './client.js';

/** The new data and ETag of a 200, or the cached copy on a 304. */
export function dataOrCached<T>(
  result: RestResult<unknown>,
  previous: CacheEntry<T> | undefined,
  parse: (data: unknown) => T,
): { data: T; etag: string | undefined } {
  if (result.status === 304) {
    if (previous === undefined) throw new Error('GitHub answered 304 to a request without a cached copy');
    return { data: previous.data, etag: previous.etag };
  }
  return { data: parse(result.data), etag: result.etag };
}
