/**
 * @module The visitor counter contract, and the in-memory store used when none is configured
 * (edge runtimes, tests): every store increments atomically and returns the new count.
 */

export interface VisitorStore {
  /**
   * Adds one visit to `key` and returns the count including it. Never loses an increment.
   * `client` (who visits) is read by the bounds of `boundVisitorStore`; stores ignore it.
   */
  increment(key: string, client?: string): Promise<number>;
  /** The current count of `key` (0 when never visited), without counting a visit. */
  peek(key: string): Promise<number>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/**
 * Retention of counters never seen again: a counter visited exactly once is removed when no
 * second visit came within this long (SQL and Redis stores), so keys tried once by a scanner
 * do not stay for ever; a counter visited twice or more is kept for ever.
 */
export const SINGLE_VISIT_RETENTION_MS = 30 * 24 * 3_600_000;

/** Table of the SQL stores. */
export const defaultVisitorTable = 'visitor_counts';

/** A safe SQL identifier for the counter table (it is spliced into DDL). */
export const visitorTableNamePattern = /^[a-z_][a-z0-9_]{0,40}$/;

/** Counts in process memory: correct for one process, gone on restart. */
export function createMemoryVisitorStore(): VisitorStore {
  const counts = new Map<string, number>();
  return {
    async increment(key) {
      const next = (counts.get(key) ?? 0) + 1;
      counts.set(key, next);
      return next;
    },
    async peek(key) {
      return counts.get(key) ?? 0;
    },
    async close() {
      counts.clear();
    },
  };
}
