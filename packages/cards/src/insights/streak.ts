/**
 * @module Current and longest contribution streaks over every year of a calendar. A day without
 * contributions breaks a streak, except today: the day is not over yet.
 */
import { dateToUtcMs, utcMsToDate } from './calendar-date.js';

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

const DAY_MS = 86_400_000;

/** Days since the epoch: streaks are walked on integers, dates only formatted at the end. */
const dayNumber = (date: string) => Math.round(dateToUtcMs(date) / DAY_MS);
const dateOf = (day: number) => utcMsToDate(day * DAY_MS);

interface DayRange {
  start: number;
  end: number;
  length: number;
}

const toRange = (range: DayRange): StreakRange => ({
  start: dateOf(range.start),
  end: dateOf(range.end),
  length: range.length,
});

/**
 * Walks every date from the first contribution to today (plus tomorrow when it already has
 * contributions: the calendar's day boundary may be ahead of the reader's time zone).
 */
export function computeStreaks(days: readonly DayCount[], today: string): StreakSummary {
  const counts = new Map<number, number>();
  for (const day of days) {
    const key = dayNumber(day.date);
    counts.set(key, Math.max(counts.get(key) ?? 0, day.count));
  }
  const todayNumber = dayNumber(today);
  const last = (counts.get(todayNumber + 1) ?? 0) > 0 ? todayNumber + 1 : todayNumber;
  let first = Number.POSITIVE_INFINITY;
  for (const [key, count] of counts) if (count > 0 && key <= last && key < first) first = key;
  if (!Number.isFinite(first)) {
    const empty = { start: today, end: today, length: 0 };
    return { total: 0, firstContribution: null, current: empty, longest: empty };
  }
  let total = 0;
  let current: DayRange = { start: first, end: first, length: 0 };
  let longest: DayRange = current;
  for (let day = first; day <= last; day += 1) {
    const count = counts.get(day) ?? 0;
    total += count;
    if (count > 0) {
      current = { start: current.length === 0 ? day : current.start, end: day, length: current.length + 1 };
      if (current.length > longest.length) longest = current;
    } else if (day !== todayNumber) {
      current = { start: day, end: day, length: 0 };
    }
  }
  const currentRange = current.length === 0 ? { start: today, end: today, length: 0 } : toRange(current);
  const longestRange = longest.length === 0 ? { start: today, end: today, length: 0 } : toRange(longest);
  return { total, firstContribution: dateOf(first), current: currentRange, longest: longestRange };
}
