/**
 * @module Calendar dates as `YYYY-MM-DD` strings: arithmetic in UTC (no DST surprises) and
 * "today" in an IANA time zone.
 */

const DAY_MS = 86_400_000;

export function dateToUtcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function utcMsToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateToUtcMs(to) - dateToUtcMs(from)) / DAY_MS);
}

/** True when `timeZone` is an IANA zone this runtime knows (`Europe/Paris`, `UTC`...). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and hour of an instant in `timeZone` (default UTC). */
export function zonedDateHour(ms: number, timeZone = 'UTC'): { date: string; hour: number } {
  const parts = Object.fromEntries(
    partsFormatter(timeZone)
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
}

/** Today's date in `timeZone`: what "today" means for the person whose streak is drawn. */
export function todayIn(nowMs: number, timeZone = 'UTC'): string {
  return zonedDateHour(nowMs, timeZone).date;
}
