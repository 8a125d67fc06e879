/**
 * @module Auto-post schedule: 30 min default, 60 s minimum, ±5 % jitter so many bots never post in lockstep.
 */

const DEFAULT_AUTO_POST_INTERVAL_MS = 30 * 60_000;
const MIN_AUTO_POST_INTERVAL_MS = 60_000;
const AUTO_POST_JITTER = 0.05;

/** Next delay: the interval (raised to the minimum) times a factor in [0.95, 1.05). */
export function nextAutoPostDelay(
  intervalMs = DEFAULT_AUTO_POST_INTERVAL_MS,
  random: () => number = Math.random,
): number {
  const base = Math.max(
    MIN_AUTO_POST_INTERVAL_MS,
    Number.isFinite(intervalMs) ? intervalMs : DEFAULT_AUTO_POST_INTERVAL_MS,
  );
  return Math.round(base * (1 - AUTO_POST_JITTER + 2 * AUTO_POST_JITTER * random()));
}
