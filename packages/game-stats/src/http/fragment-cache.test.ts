/**
 * @module Tests: The serialised-body cache: one build per generation, fresh metadata each time.
 */
import { expect, test } from 'vitest';
import { FragmentCache } from './fragment-cache.js';

test('builds a body once per generation and appends fresh metadata last', () => {
  const cache = new FragmentCache(2);
  let builds = 0;
  const body = () => {
    builds++;
    return { a: 1, list: [builds] };
  };
  let clock = 0;
  const metadata = () => ({ at: ++clock });
  expect(JSON.parse(cache.render('k', 'g1', body, metadata))).toEqual({
    a: 1,
    list: [1],
    metadata: { at: 1 },
  });
  expect(JSON.parse(cache.render('k', 'g1', body, metadata))).toEqual({
    a: 1,
    list: [1],
    metadata: { at: 2 },
  });
  expect(JSON.parse(cache.render('k', 'g2', body, metadata)).list).toEqual([2]);
  expect(Object.keys(JSON.parse(cache.render('k', 'g2', body, metadata)))).toEqual(['a', 'list', 'metadata']);
  expect(JSON.parse(cache.render('empty', 'g1', () => ({}), metadata))).toEqual({ metadata: { at: 5 } });
  // Capacity 2: a third key evicts the oldest.
  cache.render('other', 'g1', body, metadata);
  cache.render('k', 'g2', body, metadata);
  expect(builds).toBe(4);
});
