/**
 * @module The in-process data cache is bounded in bytes, not only in entries.
 */
import { expect, it } from 'vitest';
import { createMemoryCache } from '../../src/index.js';

it('keeps at most maxBytes of data: large values push old ones out, small ones all fit', async () => {
  const cache = createMemoryCache({ maxEntries: 10_000, maxBytes: 200_000 });
  for (let index = 0; index < 100; index++) await cache.set(`big-${index}`, { text: 'x'.repeat(10_000) }, 60);
  let kept = 0;
  for (let index = 0; index < 100; index++) if ((await cache.get(`big-${index}`)) !== undefined) kept++;
  // Each value weighs about 20 KB (2 bytes a character): ten fit.
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThanOrEqual(10);
  expect(await cache.get('big-99')).toEqual({ text: 'x'.repeat(10_000) });
  for (let index = 0; index < 100; index++) await cache.set(`small-${index}`, index, 60);
  expect(await cache.get('small-0')).toBe(0);
});
