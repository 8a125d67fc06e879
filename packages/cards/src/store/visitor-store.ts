/**
 * @module The visitor counter contract, its global budget and retention rule, and the in-memory
 * store used when none is configured (edge runtimes, tests): every store increments atomically,
 * returns the new count, and refuses a NEW counter that would take it past its budget.
 */

export interface VisitorStore {
  /**
   * Adds one visit to `key` and returns the count including it. Never loses an increment.
   * Throws `VisitorBudgetError` when `key` is new and the store is at its budget.
   * `client` (who visits) is read by the bounds of `boundVisitorStore`; stores ignore it.
   */
  increment(key: string, client?: string): Promise<number>;
  /** The current count of `key` (0 when never visited), without counting a visit. */
  peek(key: string): Promise<number>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/**
 * The whole store's size limit, shared by every client and instance (so no address rotation
 * dodges it): counters, and bytes as `counterBytes` measures them.
 */
export interface VisitorBudget {
  maxCounters: number;
  maxBytes: number;
}

/** 1,000,000 counters and 256 MiB: a small VPS disk or a modest Redis holds it. */
export const defaultVisitorBudget: VisitorBudget = { maxCounters: 1_000_000, maxBytes: 256 * 1024 * 1024 };

/**
 * Retention of counters never seen again: a counter whose count is at most `maxCount` is
 * removed when it got no visit for `idleMs`, so keys tried by a scanner free their budget;
 * busier counters are kept for ever.
 */
export interface VisitorRetention {
  maxCount: number;
  idleMs: number;
}

export const DAY_MS = 24 * 3_600_000;

/** A counter visited once and never again within 30 days is removed. */
export const defaultVisitorRetention: VisitorRetention = { maxCount: 1, idleMs: 30 * DAY_MS };

/** Budget and retention of a store; each field defaults to the documented value. */
export interface VisitorStoreLimits {
  budget?: Partial<VisitorBudget>;
  retention?: Partial<VisitorRetention>;
}

export function resolveVisitorLimits(limits: VisitorStoreLimits = {}): {
  budget: VisitorBudget;
  retention: VisitorRetention;
} {
  return {
    budget: { ...defaultVisitorBudget, ...limits.budget },
    retention: { ...defaultVisitorRetention, ...limits.retention },
  };
}

/** Fixed cost of one counter beyond its key (count, last visit, index entry), in bytes. */
export const COUNTER_OVERHEAD_BYTES = 64;

/** What one counter costs against `VisitorBudget.maxBytes`: its UTF-8 key plus the overhead. */
export function counterBytes(key: string): number {
  return new TextEncoder().encode(key).length + COUNTER_OVERHEAD_BYTES;
}

/** A new counter refused because the store is at its budget (existing counters still count). */
export class VisitorBudgetError extends Error {
  constructor() {
    super('This instance holds as many visitor counters as it may; existing counters still count.');
    this.name = 'VisitorBudgetError';
  }
}

/** Table of the SQL stores. */
export const defaultVisitorTable = 'visitor_counts';

/** A safe SQL identifier for the counter table (it is spliced into DDL). */
export const visitorTableNamePattern = /^[a-z_][a-z0-9_]{0,40}$/;

/** Counts in process memory: correct for one process, gone on restart; bounded by `limits.budget`. */
export function createMemoryVisitorStore(limits: VisitorStoreLimits = {}): VisitorStore {
  const { budget } = resolveVisitorLimits(limits);
  const counts = new Map<string, number>();
  let bytes = 0;
  return {
    async increment(key) {
      const count = counts.get(key);
      if (count === undefined) {
        const cost = counterBytes(key);
        if (counts.size >= budget.maxCounters || bytes + cost > budget.maxBytes)
          throw new VisitorBudgetError();
        bytes += cost;
      }
      const next = (count ?? 0) + 1;
      counts.set(key, next);
      return next;
    },
    async peek(key) {
      return counts.get(key) ?? 0;
    },
    async close() {
      counts.clear();
      bytes = 0;
    },
  };
}
