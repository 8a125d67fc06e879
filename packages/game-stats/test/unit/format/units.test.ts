/**
 * @module Tests: Tick durations and distance rounding.
 */
import { expect, test } from 'vitest';
import { centimetresToKilometres, centimetresToMetres, formatTicks } from '../../../src/format/units.js';

test.each([
  [0, '0s'],
  [19, '0s'],
  [20, '1s'],
  [20 * 61, '1m 1s'],
  [20 * 3600, '1h 0m 0s'],
  [20 * (86_400 + 2 * 3600 + 30 * 60 + 5), '1d 2h 30m 5s'],
])('%i ticks -> %s', (ticks, text) => {
  expect(formatTicks(ticks)).toBe(text);
});

test('metres and kilometres are rounded to 2 decimals', () => {
  expect(centimetresToMetres(12_345)).toBe(123.45);
  expect(centimetresToMetres(1)).toBe(0.01);
  expect(centimetresToKilometres(123_456_789)).toBe(1234.57);
});
