/**
 * @module Commits per hour of the day in a time zone, and the peak hour.
 */
import { zonedDateHour } from './calendar-date.js';

export interface CommitHours {
  /** 24 counts, index = hour of day. */
  hours: number[];
  /** Busiest hour (the earliest on a tie), null without commits. */
  peak: number | null;
  total: number;
}

export function commitHours(times: readonly number[], timeZone = 'UTC'): CommitHours {
  const hours = Array.from({ length: 24 }, () => 0);
  for (const time of times) {
    const { hour } = zonedDateHour(time, timeZone);
    hours[hour] = (hours[hour] ?? 0) + 1;
  }
  const max = Math.max(...hours);
  return { hours, peak: max > 0 ? hours.indexOf(max) : null, total: times.length };
}
