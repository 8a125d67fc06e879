/**
 * @module Star metrics of a repository from its (possibly sampled) star history.
 */

const DAY_MS = 86_400_000;

export interface StarMetrics {
  total: number;
  /** Stars gained in the last 30 days (interpolated between samples for large repositories). */
  lastThirtyDays: number;
  /** Growth of the last 30 days relative to the stars held 30 days ago, in percent (null from 0). */
  growthPercent: number | null;
}

/** Stars held at `time`: exact on a complete history, linear between samples otherwise. */
export function starsAt(
  points: ReadonlyArray<readonly [number, number]>,
  time: number,
  sampled: boolean,
): number {
  let before: readonly [number, number] | undefined;
  for (const point of points) {
    if (point[0] > time) {
      if (!sampled || before === undefined) return before?.[1] ?? 0;
      const ratio = (time - before[0]) / (point[0] - before[0] || 1);
      return before[1] + ratio * (point[1] - before[1]);
    }
    before = point;
  }
  return before?.[1] ?? 0;
}

export function starMetrics(
  history: { total: number; points: ReadonlyArray<readonly [number, number]>; sampled: boolean },
  now: number,
): StarMetrics {
  const monthAgo = starsAt(history.points, now - 30 * DAY_MS, history.sampled);
  const lastThirtyDays = Math.max(0, Math.round(history.total - monthAgo));
  const growthPercent = monthAgo > 0 ? (lastThirtyDays / monthAgo) * 100 : null;
  return { total: history.total, lastThirtyDays, growthPercent };
}
