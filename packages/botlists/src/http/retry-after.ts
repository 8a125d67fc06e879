/**
 * @module Reads how long a server asked us to wait, from the Retry-After header or a JSON body.
 */

/**
 * Seconds to wait, or null. The header may hold seconds (RFC 9110 §10.2.3) or an HTTP date;
 * bodies use `retry_after` (Discord, BotBlock) or `retry-after` (top.gg's `{"retry-after":3600}`).
 */
export function parseRetryAfter(headers: Headers, body: string, now = Date.now()): number | null {
  const header = headers.get('retry-after');
  if (header !== null && header.trim() !== '') {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, (date - now) / 1000);
  }
  try {
    const json: unknown = JSON.parse(body);
    if (json && typeof json === 'object') {
      const record = json as Record<string, unknown>;
      const value = Number(record.retry_after ?? record['retry-after']);
      if (Number.isFinite(value)) return Math.max(0, value);
    }
  } catch {
    // Not JSON: no body hint.
  }
  return null;
}
