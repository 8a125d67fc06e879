/**
 * @module Tests: the start of a window: relative durations, ISO dates at midnight in the
 * configured time zone, and the current calendar day, ISO week and month, across a
 * daylight-saving change.
 */
import { expect, test } from 'vitest';
import { WindowError, windowStartOf } from '../../../src/history/time-window.js';

// Wednesday 2026-03-25 10:00 UTC: Berlin moved to summer time (UTC+2) on Sunday 2026-03-29,
// so take a date after it too.
const wednesday = Date.parse('2026-03-25T10:00:00Z');
const afterChange = Date.parse('2026-04-01T10:00:00Z');

test('relative durations count back from now', () => {
  expect(windowStartOf({ since: '7d' }, wednesday, 'UTC')).toBe(wednesday - 7 * 86_400_000);
  expect(windowStartOf({ since: '30m' }, wednesday, 'UTC')).toBe(wednesday - 30 * 60_000);
  expect(windowStartOf({ since: '2w' }, wednesday, 'UTC')).toBe(wednesday - 14 * 86_400_000);
});

test('a bare ISO date is midnight in the time zone; a date-time is taken as written', () => {
  expect(windowStartOf({ since: '2026-03-20' }, wednesday, 'Europe/Berlin')).toBe(
    Date.parse('2026-03-19T23:00:00Z'),
  );
  expect(windowStartOf({ since: '2026-03-31' }, afterChange, 'Europe/Berlin')).toBe(
    Date.parse('2026-03-30T22:00:00Z'),
  );
  expect(windowStartOf({ since: '2026-03-20T05:00:00+02:00' }, wednesday, 'UTC')).toBe(
    Date.parse('2026-03-20T03:00:00Z'),
  );
});

test('period: the current day, ISO week (from Monday) and month in the time zone', () => {
  expect(windowStartOf({ period: 'day' }, wednesday, 'UTC')).toBe(Date.parse('2026-03-25T00:00:00Z'));
  expect(windowStartOf({ period: 'week' }, wednesday, 'UTC')).toBe(Date.parse('2026-03-23T00:00:00Z'));
  expect(windowStartOf({ period: 'month' }, wednesday, 'UTC')).toBe(Date.parse('2026-03-01T00:00:00Z'));
  // Berlin: the week began on Monday 30 March in summer time, the month on 1 April.
  expect(windowStartOf({ period: 'week' }, afterChange, 'Europe/Berlin')).toBe(
    Date.parse('2026-03-29T22:00:00Z'),
  );
  expect(windowStartOf({ period: 'month' }, afterChange, 'Europe/Berlin')).toBe(
    Date.parse('2026-03-31T22:00:00Z'),
  );
  // 23:30 UTC on Sunday is already Monday in Tokyo.
  const sundayNight = Date.parse('2026-03-29T23:30:00Z');
  expect(windowStartOf({ period: 'week' }, sundayNight, 'Asia/Tokyo')).toBe(
    Date.parse('2026-03-29T15:00:00Z'),
  );
  expect(windowStartOf({ period: 'week' }, sundayNight, 'UTC')).toBe(Date.parse('2026-03-23T00:00:00Z'));
});

test('no window asked: null; bad ones: WindowError', () => {
  expect(windowStartOf({}, wednesday, 'UTC')).toBeNull();
  expect(() => windowStartOf({ since: '7 days' }, wednesday, 'UTC')).toThrow(WindowError);
  expect(() => windowStartOf({ since: '2026-13-01' }, wednesday, 'UTC')).toThrow('ISO date');
  expect(() => windowStartOf({ since: '2026-04-01' }, wednesday, 'UTC')).toThrow('future');
});
