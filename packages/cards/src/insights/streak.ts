/**
 * @module Current and longest contribution streaks over every year of a calendar. A day without
 * contributions breaks a streak, except today: the day is not over yet.
 */
import { addDays, daysBetween } from './calendar-date.js';

export interface DayCount {
  date: string;
  count: number;
}

export interface StreakRange {
  start: string;
  end: string;
  length: number;
}

export interface StreakSummary {
  total: number;
  /** First day with a contribution, or null for an empty calendar. */
  firstContribution: string | null;
  /** Length 0 when there is no running streak. */
  current: StreakRange;
  longest: StreakRange;
}

const emptyRange = (date: string): StreakRange => ({ start: date, end: date, length: 0 });

/**
 * Walks every date from the first contribution to today (plus tomorrow when it already has
 * contributions: the calendar's day boundary may be ahead of the reader's time zone).
 */
export function computeStreaks(days: readonly DayCount[], today: string): StreakSummary {
  const counts = new Map<string, number>();
  for (const day of days) counts.set(day.date, Math.max(counts.get(day.date) ?? 0, day.count));
  const tomorrow = addDays(today, 1);
  const last = (counts.get(tomorrow) ?? 0) > 0 ? tomorrow : today;
  const contributed = [...counts.entries()]
    .filter(([date, count]) => count > 0 && date <= last)
    .map(([date]) => date)
    .sort();
  const first = contributed[0];
  if (first === undefined) {
    return { total: 0, firstContribution: null, current: emptyRange(today), longest: emptyRange(today) };
  }
  let total = 0;
  let current = emptyRange(first);
  let longest = emptyRange(first);
  const span = daysBetween(first, last);
  for (let offset = 0; offset <= span; offset += 1) {
    const date = addDays(first, offset);
    const count = counts.get(date) ?? 0;
    total += count;
    if (count > 0) {
      current =
        current.length === 0
          ? { start: date, end: date, length: 1 }
          : { ...current, end: date, length: current.length + 1 };
      if (current.length > longest.length) longest = current;
    } else if (date !== today) {
      current = emptyRange(date);
    }
  }
  return { total, firstContribution: first, current, longest };
}
