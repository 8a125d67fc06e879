/**
 * @module Tells a database that is down or busy (answer 503, retry later) from a bug (500).
 */

/** Node socket errors (PostgreSQL unreachable) and SQLite's busy / I/O / cannot-open families. */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') {
    // pg's pool reports a connect timeout as a plain Error.
    return error instanceof Error && error.message.includes('timeout exceeded when trying to connect');
  }
  if (unavailableCodes.has(code)) return true;
  // PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown).
  if (code.startsWith('08') || code.startsWith('57P')) return true;
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN';
}
