/**
 * @module The tiered cache: reads near first, fills near from far, writes both, and keeps
 * nothing near longer than its near TTL.
 */
import { expect, it } from 'vitest';
import { type CardCache, createMemoryCache } from '../../src/store/card-cache.js';
import { createTieredCache } from '../../src/store/tiered-cache.js';

/** A far cache that counts its reads. */
function countingFar(): CardCache & { reads: number } {
  const inner = createMemoryCache();
  const far = {
    reads: 0,
    get: async <Value>(key: string) => {
      far.reads++;
      return inner.get<Value>(key);
    },
    set: inner.set,
    close: inner.close,
  };
  return far;
}

it('answers from far once, then from near; a write reaches both', async () => {
  const near = createMemoryCache();
  const far = countingFar();
  await far.set('shared', { from: 'another instance' }, 600);
  const cache = createTieredCache(near, far);
  expect(await cache.get('shared')).toEqual({ from: 'another instance' });
  expect(await cache.get('shared')).toEqual({ from: 'another instance' });
  expect(far.reads).toBe(1);
  expect(await near.get('shared')).toEqual({ from: 'another instance' });

  await cache.set('mine', 42, 600);
  expect(await far.get('mine')).toBe(42);
  expect(await near.get('mine')).toBe(42);
  expect(await cache.get('missing')).toBeUndefined();
});

it('keeps nothing near longer than the near TTL, so changes made far show within it', async () => {
  const nearTtls: number[] = [];
  const memory = createMemoryCache();
  const near: CardCache = {
    get: memory.get,
    set: async (key, value, ttlSeconds) => {
      nearTtls.push(ttlSeconds);
      await memory.set(key, value, ttlSeconds);
    },
    close: memory.close,
  };
  const far = countingFar();
  const cache = createTieredCache(near, far, { nearTtlSeconds: 60 });
  await far.set('read-through', 'x', 3_600);
  await cache.get('read-through');
  await cache.set('written', 'y', 604_800);
  await cache.set('short-lived', 'z', 5);
  expect(nearTtls).toEqual([60, 60, 5]);
});
