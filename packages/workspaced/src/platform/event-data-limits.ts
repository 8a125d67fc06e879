/**
 * @module The bounds of a custom event's `data` (`POST /events`): at most 32 levels of nesting
 * (422 `DATA_TOO_DEEP`) and 64 KiB serialized (413 `BODY_TOO_LARGE`). Deep nesting is measured
 * without recursion, before anything serializes the value: `JSON.stringify` recurses, and data
 * nested thousands of levels deep made it throw wherever the event went next (webhooks).
 */
import { ApiError } from '../http/api-error.js';

/** `data` itself is level 1: `{"a": [1]}` has 2 levels. */
const maxDataDepth = 32;
const maxDataBytes = 64 * 1024;

/** True when `value` nests deeper than `limit` objects and arrays. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [current, depth] = item;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

export function checkEventData(data: Record<string, unknown>): void {
  if (nestsDeeperThan(data, maxDataDepth))
    throw new ApiError('DATA_TOO_DEEP', `data nests deeper than ${maxDataDepth} levels`, {
      max_depth: maxDataDepth,
    });
  if (Buffer.byteLength(JSON.stringify(data)) > maxDataBytes)
    throw new ApiError('BODY_TOO_LARGE', `data is larger than ${maxDataBytes} bytes`, {
      max_bytes: maxDataBytes,
    });
}
