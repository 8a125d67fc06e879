/**
 * @module Unit conversions and human-readable durations of the API's numbers.
 */

/** The game runs 20 ticks a second. */
export const ticksPerSecond = 20;

/** Rounds to 2 decimals, as the spec asks for metres and kilometres. */
function twoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}

export function centimetresToMetres(cm: number): number {
  return twoDecimals(cm / 100);
}

export function centimetresToKilometres(cm: number): number {
  return twoDecimals(cm / 100_000);
}

/** `1d 2h 30m 5s`, leading zero units left out; `0s` for nothing. */
export function formatTicks(ticks: number): string {
  let seconds = Math.floor(ticks / ticksPerSecond);
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3_600);
  seconds -= hours * 3_600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days}d`);
  if (days > 0 || hours > 0) parts.push(`${hours}h`);
  if (days > 0 || hours > 0 || minutes > 0) parts.push(`${minutes}m`);
  parts.push(`${seconds}s`);
  return parts.join(' ');
}
