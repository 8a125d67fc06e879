/**
 * @module Tests: The fixed-window rate limiter.
 */
import { expect, test } from 'vitest';
import { FixedWindowRateLimiter } from './rate-limiter.js';

test('fixed window: N requests pass, the next is refused until the window ends', () => {
  let now = 1_000_000;
  const limiter = new FixedWindowRateLimiter(3, 60_000, () => now);
  expect([1, 2, 3].map(() => limiter.hit('a').remaining)).toEqual([2, 1, 0]);
  const refused = limiter.hit('a');
  expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetAt: 1_060_000 });
  expect(limiter.hit('b').allowed).toBe(true);
  now += 59_999;
  expect(limiter.hit('a').allowed).toBe(false);
  now += 1;
  expect(limiter.hit('a')).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: 1_120_000 });
});
