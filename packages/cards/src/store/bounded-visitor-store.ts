/**
 * @module Bounds on what clients can add to any visitor store: a key policy in bytes, and a
 * per-client rate of NEW counters (counting an existing counter is never limited), so one
 * client cannot grow the store without bound.
 */
import { LRUCache } from 'lru-cache';
import { createPerClientWindow } from '../http/per-client-window.js';
import type { VisitorStore } from './visitor-store.js';

/**
 * Longest counter key, in UTF-8 bytes: the `username` parameter allows 100 characters (UTF-16
 * code units, at most 3 bytes each), so this refuses only keys handed to the store otherwise.
 */
export const MAX_VISITOR_KEY_BYTES = 300;

export interface VisitorLimits {
  /** New counters one client may create per hour; default 20. */
  newCountersPerClientPerHour?: number;
}

const HOUR_MS = 3_600_000;
/** Keys known to exist, so counting them needs no extra read (bounded in bytes). */
const KNOWN_KEYS_BYTES = 4 * 1024 * 1024;
/** Clients whose new counters are counted at once; a full table refuses newcomers until an hour ends. */
const MAX_CLIENTS = 50_000;

/** A visit the bounds refuse: a key outside the policy (400) or too many new counters (429). */
export class VisitorLimitError extends Error {
  constructor(
    readonly status: 400 | 429,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'VisitorLimitError';
  }
}

/**
 * Wraps `store`: `increment(key, client)` refuses keys over `MAX_VISITOR_KEY_BYTES`, and a
 * counter that does not exist yet only when `client` still has new counters left this hour.
 * Requests without a client (unknown, or GitHub's image proxy) are not rate limited: the
 * store's global budget (`VisitorBudget`) bounds them, and everyone.
 */
export function boundVisitorStore(
  store: VisitorStore,
  limits: VisitorLimits = {},
  now: () => number = Date.now,
): VisitorStore {
  const perHour = limits.newCountersPerClientPerHour ?? 20;
  const known = new LRUCache<string, true>({
    maxSize: KNOWN_KEYS_BYTES,
    sizeCalculation: (_value, key) => 64 + 2 * key.length,
  });
  const newCounters = createPerClientWindow({
    limit: perHour,
    windowMs: HOUR_MS,
    maxClients: MAX_CLIENTS,
    now,
  });

  return {
    async increment(key, client) {
      if (new TextEncoder().encode(key).length > MAX_VISITOR_KEY_BYTES) {
        throw new VisitorLimitError(400, `username is at most ${MAX_VISITOR_KEY_BYTES} bytes (UTF-8)`);
      }
      if (client !== undefined && !known.has(key)) {
        const existing = await store.peek(key);
        // Concurrent first visits of one new key all read 0: only the first to get here pays.
        const wait = existing === 0 && !known.has(key) ? newCounters.charge(client) : null;
        if (wait !== null) {
          throw new VisitorLimitError(
            429,
            'Too many new counters from this address; existing counters still count.',
            wait,
          );
        }
        known.set(key, true);
      }
      return store.increment(key);
    },
    peek: (key) => store.peek(key),
    close: () => store.close(),
  };
}
