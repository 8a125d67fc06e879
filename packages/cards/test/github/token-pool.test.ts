/**
 * @module The token pool: most remaining budget first, benched tokens skipped until their reset.
 */
import { describe, expect, it } from 'vitest';
import { createTokenPool } from '../../src/github/token-pool.js';

describe('createTokenPool', () => {
  it('picks the token with the most remaining budget', () => {
    const pool = createTokenPool(['a', 'b', 'c'], () => 0);
    pool.record('a', 100);
    pool.record('b', 4_000);
    pool.record('c', 2_500);
    expect(pool.pick()).toBe('b');
    pool.record('b', 10);
    expect(pool.pick()).toBe('c');
  });

  it('skips benched tokens until their time, then says when the first comes back', () => {
    let now = 1_000_000;
    const pool = createTokenPool(['a', 'b'], () => now);
    pool.bench('a', now + 60_000);
    expect(pool.pick()).toBe('b');
    pool.bench('b', now + 30_000);
    expect(pool.pick()).toBeUndefined();
    expect(pool.secondsUntilAvailable()).toBe(30);
    now += 30_000;
    expect(pool.pick()).toBe('b');
  });

  it('works anonymously without tokens', () => {
    const pool = createTokenPool([], () => 0);
    expect(pool.pick()).toBe('');
    expect(pool.size).toBe(1);
  });
});
