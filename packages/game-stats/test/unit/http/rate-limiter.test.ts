/**
 * @module Tests: The fixed-window rate limiter.
 */
import { afterEach, expect, test } from 'vitest';
import { FixedWindowRateLimiter } from '../../../src/http/rate-limiter.js';

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

const realIterator = Map.prototype[Symbol.iterator];
afterEach(() => {
  Map.prototype[Symbol.iterator] = realIterator;
});

/** Counts the Map entries visited while `run` runs (the work a sweep does), not time. */
function mapEntriesVisited(run: () => void): number {
  let visited = 0;
  Map.prototype[Symbol.iterator] = function counted(this: Map<unknown, unknown>) {
    const inner = realIterator.call(this);
    return {
      next: () => {
        visited++;
        return inner.next();
      },
      [Symbol.iterator]() {
        return this;
      },
    } as MapIterator<[unknown, unknown]>;
  };
  try {
    run();
  } finally {
    Map.prototype[Symbol.iterator] = realIterator;
  }
  return visited;
}

test('the work per new client stays constant with 20,000 live clients (no full sweep per newcomer)', () => {
  let now = 1_000_000;
  const limiter = new FixedWindowRateLimiter(5, 60_000, () => now);
  const clients = 20_000;
  const visited = mapEntriesVisited(() => {
    for (let index = 0; index < clients; index++)
      limiter.hit(`10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
  });
  expect(visited).toBeLessThan(3 * clients);
  // Expired windows are still dropped as time moves on: one live client after the window.
  now += 60_000;
  expect(mapEntriesVisited(() => limiter.hit('fresh'))).toBeLessThanOrEqual(clients + 2);
  expect(mapEntriesVisited(() => limiter.hit('fresh-2'))).toBeLessThanOrEqual(3);
});

test('bounded memory never forgets a live count: a full table refuses newcomers until the oldest window ends', () => {
  let now = 1_000_000;
  const limiter = new FixedWindowRateLimiter(2, 60_000, () => now, 3);
  limiter.hit('a');
  limiter.hit('a');
  now += 10_000;
  limiter.hit('b');
  limiter.hit('c');
  expect(limiter.hit('d')).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 1_060_000 });
  // a is still counted: its third request in the window is refused.
  expect(limiter.hit('a').allowed).toBe(false);
  now = 1_060_000;
  expect(limiter.hit('d').allowed).toBe(true);
  expect(limiter.hit('b').allowed).toBe(true);
  expect(limiter.hit('b').allowed).toBe(false);
});
