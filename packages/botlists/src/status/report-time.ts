/**
 * @module Times in status reports, read from whatever a caller's board carries (epoch ms, ISO text
 * or a Date), never throwing on a missing or invalid one.
 */
import type { StatusBoardInput } from '../types.js';

/** ISO 8601 text of `value`, or null when it is no valid time. */
export function isoTime(value: number | string | Date | undefined): string | null {
  if (value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** When the board was checked: its `checkedAt`, else the latest `lastChecked` of its entries. */
export function boardTime(board: StatusBoardInput): string | null {
  if (board.checkedAt !== undefined) return isoTime(board.checkedAt);
  let latest: string | null = null;
  for (const entry of board.entries) {
    const time = isoTime(entry.lastChecked);
    if (time !== null && (latest === null || time > latest)) latest = time;
  }
  return latest;
}
