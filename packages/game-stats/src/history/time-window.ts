/**
 * @module The start of a leaderboard window: `since=7d` (also `30m`, `12h`, `2w`), `since=<ISO
 * date or date-time>` (a bare date is midnight in the configured time zone), or
 * `period=day|week|month` (the current calendar day, ISO week from Monday, or month in that
 * time zone).
 */

const units: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export class WindowError extends Error {}

/** Start of the window in ms since the epoch; null when the query asks for none. */
export function windowStartOf(
  query: { since?: string; period?: 'day' | 'week' | 'month' },
  now: number,
  timeZone: string,
): number | null {
  if (query.since !== undefined && query.period !== undefined)
    throw new WindowError('since and period cannot be combined');
  if (query.period !== undefined) return periodStart(query.period, now, timeZone);
  if (query.since === undefined) return null;
  const relative = /^(\d{1,6})([mhdw])$/.exec(query.since);
  let start: number;
  if (relative) start = now - Number(relative[1]) * units[relative[2]!]!;
  else if (/^\d{4}-\d{2}-\d{2}$/.test(query.since)) {
    const [year, month, day] = query.since.split('-').map(Number) as [number, number, number];
    start = localMidnight(year, month - 1, day, timeZone);
    const written = new Date(Date.UTC(year, month - 1, day));
    if (written.getUTCMonth() !== month - 1 || written.getUTCDate() !== day) start = Number.NaN;
  } else if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(query.since))
    start = Date.parse(query.since);
  else start = Number.NaN;
  if (Number.isNaN(start))
    throw new WindowError('since must be a duration (30m, 12h, 7d, 2w) or an ISO date or date-time');
  if (start > now) throw new WindowError('since must not be in the future');
  return start;
}

function periodStart(period: 'day' | 'week' | 'month', now: number, timeZone: string): number {
  const { year, month, day, weekday } = localDate(now, timeZone);
  if (period === 'month') return localMidnight(year, month, 1, timeZone);
  // ISO weeks start on Monday (weekday 1; Sunday is 0).
  const back = period === 'week' ? (weekday + 6) % 7 : 0;
  return localMidnight(year, month, day - back, timeZone);
}

function partsOf(ms: number, timeZone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const values: Record<string, number> = {};
  for (const part of parts) if (part.type !== 'literal') values[part.type] = Number(part.value);
  return values;
}

function localDate(ms: number, timeZone: string) {
  const parts = partsOf(ms, timeZone);
  const month = parts.month! - 1;
  const weekday = new Date(Date.UTC(parts.year!, month, parts.day!)).getUTCDay();
  return { year: parts.year!, month, day: parts.day!, weekday };
}

/** Local time minus UTC at `ms`, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = partsOf(ms, timeZone);
  const local = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return local - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant of 00:00 of a local date (`day` may overflow the month, as in Date.UTC). */
function localMidnight(year: number, month: number, day: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month, day);
  const first = asUtc - offsetAt(asUtc, timeZone);
  // Once more with the offset at that instant (a daylight-saving change between the two).
  return asUtc - offsetAt(first, timeZone);
}

/** Whether Intl knows the time zone (checked when the configuration is read). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
