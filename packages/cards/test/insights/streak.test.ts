/**
 * @module Streaks computed by hand: gap days, an empty today, leap years, year boundaries and
 * time zones.
 */
import { describe, expect, it } from 'vitest';
import { isTimeZone, todayIn } from '../../src/insights/calendar-date.js';
import { computeStreaks, type DayCount } from '../../src/insights/streak.js';

const days = (entries: Record<string, number>): DayCount[] =>
  Object.entries(entries).map(([date, count]) => ({ date, count }));

describe('computeStreaks', () => {
  it('keeps a streak alive while today is still empty', () => {
    const result = computeStreaks(
      days({ '2024-03-12': 1, '2024-03-13': 2, '2024-03-14': 1, '2024-03-15': 0 }),
      '2024-03-15',
    );
    expect(result.current).toEqual({ start: '2024-03-12', end: '2024-03-14', length: 3 });
    expect(result.total).toBe(4);
  });

  it('breaks a streak on an empty day before today', () => {
    const result = computeStreaks(days({ '2024-03-12': 1, '2024-03-13': 1 }), '2024-03-15');
    expect(result.current.length).toBe(0);
    expect(result.longest).toEqual({ start: '2024-03-12', end: '2024-03-13', length: 2 });
  });

  it('counts today when it has contributions', () => {
    const result = computeStreaks(days({ '2024-03-14': 1, '2024-03-15': 1 }), '2024-03-15');
    expect(result.current).toEqual({ start: '2024-03-14', end: '2024-03-15', length: 2 });
  });

  it('runs through 29 February and across a year boundary', () => {
    const result = computeStreaks(
      days({
        '2023-12-30': 1,
        '2023-12-31': 1,
        '2024-01-01': 1,
        '2024-01-02': 1,
        '2024-02-28': 1,
        '2024-02-29': 1,
        '2024-03-01': 1,
      }),
      '2024-03-01',
    );
    expect(result.longest).toEqual({ start: '2023-12-30', end: '2024-01-02', length: 4 });
    expect(result.current).toEqual({ start: '2024-02-28', end: '2024-03-01', length: 3 });
    // 2023 is not a leap year: 28 February -> 1 March is two days there.
    const common = computeStreaks(days({ '2023-02-28': 1, '2023-03-01': 1 }), '2023-03-01');
    expect(common.current.length).toBe(2);
  });

  it('keeps the first of two equal longest streaks', () => {
    const result = computeStreaks(
      days({ '2024-01-01': 1, '2024-01-02': 1, '2024-01-05': 1, '2024-01-06': 1 }),
      '2024-01-10',
    );
    expect(result.longest).toEqual({ start: '2024-01-01', end: '2024-01-02', length: 2 });
  });

  it('counts tomorrow when the calendar already has it (reader behind UTC)', () => {
    const result = computeStreaks(days({ '2024-03-15': 1, '2024-03-16': 2 }), '2024-03-15');
    expect(result.current).toEqual({ start: '2024-03-15', end: '2024-03-16', length: 2 });
    expect(result.total).toBe(3);
  });

  it('ignores days after tomorrow and handles an empty calendar', () => {
    expect(computeStreaks(days({ '2024-03-20': 5 }), '2024-03-15').total).toBe(0);
    expect(computeStreaks([], '2024-03-15')).toEqual({
      total: 0,
      firstContribution: null,
      current: { start: '2024-03-15', end: '2024-03-15', length: 0 },
      longest: { start: '2024-03-15', end: '2024-03-15', length: 0 },
    });
  });

  it('merges duplicate dates from overlapping calendars', () => {
    const result = computeStreaks(days({ '2024-01-01': 3 }).concat(days({ '2024-01-01': 3 })), '2024-01-01');
    expect(result.total).toBe(3);
  });
});

describe('time zones', () => {
  // 2024-03-15T02:00Z is still 14 March in New York (UTC-4 after 10 March) and already
  // 15 March in Tokyo (UTC+9).
  const instant = Date.parse('2024-03-15T02:00:00Z');

  it('computes today in the reader time zone', () => {
    expect(todayIn(instant, 'America/New_York')).toBe('2024-03-14');
    expect(todayIn(instant, 'Asia/Tokyo')).toBe('2024-03-15');
    expect(todayIn(instant)).toBe('2024-03-15');
  });

  it('changes the streak with the time zone', () => {
    const calendar = days({ '2024-03-12': 1, '2024-03-13': 1 });
    // In New York "today" is the 14th and still empty: the streak holds.
    expect(computeStreaks(calendar, todayIn(instant, 'America/New_York')).current.length).toBe(2);
    // In Tokyo the 14th is over and empty: the streak is broken.
    expect(computeStreaks(calendar, todayIn(instant, 'Asia/Tokyo')).current.length).toBe(0);
  });

  it('recognises IANA zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
