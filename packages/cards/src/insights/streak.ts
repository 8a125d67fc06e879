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
const dateOfDay = (day: number) => utcMsToDate(day * DAY_MS);

interface DayRange {
  start: number;
  end: number;
  length: number;
}

interface StreakOptions {
  /** Count weeks (Sunday to Saturday) instead of days: a week with a contribution extends. */
  weekly?: boolean;
  /** Weekdays (0 = Sunday) whose empty days extend a running streak instead of breaking it. */
  excludedWeekdays?: ReadonlySet<number>;
}

/** Day 0 (1970-01-01) was a Thursday. */
const weekdayOf = (day: number) => (day + 4) % 7;
/** Weeks start on Sunday: week `w` starts on day `7w - 4`. */
const weekOf = (day: number) => Math.floor((day + 4) / 7);
const weekStart = (week: number) => week * 7 - 4;

/** Per-day counts (the largest of duplicates) summed per week. */
function weeklyCounts(daily: ReadonlyMap<number, number>): Map<number, number> {
  const weeks = new Map<number, number>();
  for (const [day, count] of daily) weeks.set(weekOf(day), (weeks.get(weekOf(day)) ?? 0) + count);
  return weeks;
}

/**
 * Walks every date (or week) from the first contribution to today (plus tomorrow when it
 * already has contributions: the calendar's day boundary may be ahead of the reader's time
 * zone).
 */
export function computeStreaks(
  days: readonly DayCount[],
  today: string,
  options: StreakOptions = {},
): StreakSummary {
  const daily = new Map<number, number>();
  for (const day of days) {
    const key = dayNumber(day.date);
    daily.set(key, Math.max(daily.get(key) ?? 0, day.count));
  }
  const todayDay = dayNumber(today);
  const lastDay = (daily.get(todayDay + 1) ?? 0) > 0 ? todayDay + 1 : todayDay;
  const counts = options.weekly ? weeklyCounts(daily) : daily;
  const todayNumber = options.weekly ? weekOf(todayDay) : todayDay;
  const last = options.weekly ? weekOf(lastDay) : lastDay;
  const dateOf = options.weekly ? (week: number) => dateOfDay(weekStart(week)) : dateOfDay;
  const excluded = options.weekly ? undefined : options.excludedWeekdays;
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
    const skipped = count === 0 && current.length > 0 && excluded?.has(weekdayOf(day)) === true;
    if (count > 0 || skipped) {
      current = { start: current.length === 0 ? day : current.start, end: day, length: current.length + 1 };
      if (current.length > longest.length) longest = current;
    } else if (day !== todayNumber) {
      current = { start: day, end: day, length: 0 };
    }
  }
  const toRange = (range: DayRange): StreakRange => ({
    start: dateOf(range.start),
    end: dateOf(range.end),
    length: range.length,
  });
  const currentRange = current.length === 0 ? { start: today, end: today, length: 0 } : toRange(current);
  const longestRange = longest.length === 0 ? { start: today, end: today, length: 0 } : toRange(longest);
  return { total, firstContribution: dateOf(first), current: currentRange, longest: longestRange };
}
