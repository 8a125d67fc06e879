/**
 * @module The recent weeks of a contribution calendar as a grid: one column per week (Sunday
 * first), one row per weekday, like GitHub's profile graph.
 */
import { addDays, dateToUtcMs } from './calendar-date.js';

interface GridDay {
  date: string;
  count: number;
  level: 0 | 1 | 2 | 3 | 4;
}

/** Columns of 7 cells; cells after today are null. */
export type ContributionGrid = Array<Array<GridDay | null>>;

/** The `weeks` weeks ending with the week of `today`. */
export function contributionGrid(
  days: ReadonlyArray<{ date: string; count: number; level: number }>,
  today: string,
  weeks: number,
): ContributionGrid {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const weekday = new Date(dateToUtcMs(today)).getUTCDay();
  const firstSunday = addDays(today, -weekday - 7 * (weeks - 1));
  return Array.from({ length: weeks }, (_, week) =>
    Array.from({ length: 7 }, (_, row) => {
      const date = addDays(firstSunday, week * 7 + row);
      if (date > today) return null;
      const day = byDate.get(date);
      const level = Math.min(4, Math.max(0, day?.level ?? 0)) as GridDay['level'];
      return { date, count: day?.count ?? 0, level };
    }),
  );
}
