/**
 * @module The visitor store's global budget and retention rule as every runtime reads them
 * from its environment (Node's `process.env`, a Worker's bindings, a Vercel function).
 */
import { z } from 'zod';
import { DAY_MS, type VisitorStoreLimits } from '../store/visitor-store.js';

const wholeNumber = (what: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `must be a whole number of ${what}`)
    .transform(Number)
    .optional();

/** Each variable is optional; unset, the documented default of `VisitorStoreLimits` applies. */
export const visitorEnvironmentSchema = z.object({
  /** Counters the store may hold in all (default 1,000,000). */
  CARDS_VISITOR_MAX_COUNTERS: wholeNumber('counters'),
  /** Bytes the counters may take in all: UTF-8 key + 64 each (default 268435456, 256 MiB). */
  CARDS_VISITOR_MAX_BYTES: wholeNumber('bytes'),
  /** Retention: counters with at most this count (default 1) ... */
  CARDS_VISITOR_RETENTION_COUNT: wholeNumber('visits'),
  /** ... and no visit for this many days (default 30) are removed. */
  CARDS_VISITOR_RETENTION_DAYS: wholeNumber('days'),
});

export type VisitorEnvironment = z.infer<typeof visitorEnvironmentSchema>;

/** The store limits a parsed environment sets (only the variables it has). */
export function visitorLimitsFrom(environment: VisitorEnvironment): VisitorStoreLimits {
  const budget: VisitorStoreLimits['budget'] = {};
  const retention: VisitorStoreLimits['retention'] = {};
  if (environment.CARDS_VISITOR_MAX_COUNTERS !== undefined)
    budget.maxCounters = environment.CARDS_VISITOR_MAX_COUNTERS;
  if (environment.CARDS_VISITOR_MAX_BYTES !== undefined)
    budget.maxBytes = environment.CARDS_VISITOR_MAX_BYTES;
  if (environment.CARDS_VISITOR_RETENTION_COUNT !== undefined)
    retention.maxCount = environment.CARDS_VISITOR_RETENTION_COUNT;
  if (environment.CARDS_VISITOR_RETENTION_DAYS !== undefined)
    retention.idleMs = environment.CARDS_VISITOR_RETENTION_DAYS * DAY_MS;
  return { budget, retention };
}
