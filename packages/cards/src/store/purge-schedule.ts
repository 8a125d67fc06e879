/**
 * @module When a store applies its retention rule while serving: at most hourly, during a visit,
 * so no timer keeps a process (or an edge isolate) alive.
 */

const PURGE_INTERVAL_MS = 3_600_000;

/** Counters one purge step removes before yielding to visits (SQL transaction, Redis script). */
export const PURGE_BATCH = 1_000;

/**
 * Returns a function to await before each visit: it runs `purge` when `PURGE_INTERVAL_MS` has
 * passed since the last run (counting from `lastRun`; pass -Infinity to run at the first visit).
 */
export function purgeAtMostHourly(
  purge: () => Promise<unknown>,
  now: () => number,
  lastRun: number = now(),
): () => Promise<void> {
  let last = lastRun;
  return async () => {
    const at = now();
    if (at - last < PURGE_INTERVAL_MS) return;
    last = at;
    await purge();
  };
}
