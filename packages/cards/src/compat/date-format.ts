/**
 * @module github-readme-streak-stats' `date_format`: PHP date letters (`M j[, Y]`), where the
 * part in brackets shows only for dates outside the current year.
 */
import { monthNames } from '../cards/github-marks.js';

const fullMonths = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The letters we write; other characters of a format must be separators. */
const letters = new Set(['d', 'j', 'D', 'm', 'n', 'M', 'F', 'Y', 'y']);
const separators = new Set([' ', ',', '.', '/', '-', ':', '[', ']']);
const maxFormatLength = 24;

/** A format we can write (only known letters and separators, brackets balanced); else undefined. */
export function readDateFormat(raw: string): string | undefined {
  if (raw.length > maxFormatLength) return undefined;
  let depth = 0;
  for (const char of raw) {
    if (!letters.has(char) && !separators.has(char)) return undefined;
    if (char === '[') depth++;
    if (char === ']') depth--;
    if (depth < 0 || depth > 1) return undefined;
  }
  return depth === 0 ? raw : undefined;
}

function letter(char: string, year: number, month: number, day: number, weekday: number): string {
  switch (char) {
    case 'd':
      return String(day).padStart(2, '0');
    case 'j':
      return String(day);
    case 'D':
      return weekdays[weekday]!;
    case 'm':
      return String(month).padStart(2, '0');
    case 'n':
      return String(month);
    case 'M':
      return monthNames[month - 1]!;
    case 'F':
      return fullMonths[month - 1]!;
    case 'Y':
      return String(year);
    case 'y':
      return String(year % 100).padStart(2, '0');
    default:
      return char;
  }
}

/** A formatter of `YYYY-MM-DD` dates for a format read by `readDateFormat`. */
export function dateFormatter(format: string, currentYear: number): (date: string) => string {
  return (date) => {
    const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
    const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    let text = '';
    let optional = false;
    for (const char of format) {
      if (char === '[') optional = true;
      else if (char === ']') optional = false;
      else if (!optional || year !== currentYear) text += letter(char, year, month, day, weekday);
    }
    return text;
  };
}
