/**
 * @module A hand-driven clock for the injectable `now()`.
 */
export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
}

export function fakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

/** argon2id parameters cheap enough for store tests on a shared 2-core machine (the defaults have their own test). */
export const cheapArgon2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
