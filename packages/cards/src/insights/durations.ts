/**
 * @module Human durations: account age ("uptime") and relative times of events.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const plural = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;

/** Calendar difference from `from` to `to` as "1 year, 10 months, 14 days" (zero parts omitted). */
export function accountAge(fromMs: number, toMs: number): string {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  let years = to.getUTCFullYear() - from.getUTCFullYear();
  let months = to.getUTCMonth() - from.getUTCMonth();
  let days = to.getUTCDate() - from.getUTCDate();
  if (days < 0) {
    months -= 1;
    // Borrow the month before `to`; a 31st anchors on that month's last day (31 Jan + 1 month = 29 Feb).
    const borrowed = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), 0)).getUTCDate();
    days = borrowed - Math.min(from.getUTCDate(), borrowed) + to.getUTCDate();
  }
  if (months < 0) {
    years -= 1;
    months += 12;
  }
  const parts = [
    years > 0 ? plural(years, 'year') : '',
    months > 0 ? plural(months, 'month') : '',
    days > 0 || (years === 0 && months === 0) ? plural(Math.max(0, days), 'day') : '',
  ];
  return parts.filter((part) => part !== '').join(', ');
}

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", "2 months ago". */
export function relativeTime(atMs: number, nowMs: number): string {
  const elapsed = Math.max(0, nowMs - atMs);
  if (elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${plural(Math.floor(elapsed / MINUTE_MS), 'minute')} ago`;
  if (elapsed < DAY_MS) return `${plural(Math.floor(elapsed / HOUR_MS), 'hour')} ago`;
  const days = Math.floor(elapsed / DAY_MS);
  if (days === 1) return 'yesterday';
  if (days < 30) return `${days} days ago`;
  if (days < 365) return `${plural(Math.floor(days / 30), 'month')} ago`;
  return `${plural(Math.floor(days / 365), 'year')} ago`;
}
