/**
 * @module Upstream calls per client: a fixed one-minute window of GitHub calls for each client,
 * so one client asking for cold cards of ever new accounts cannot spend the whole token pool.
 * Memory is bounded, and a full table refuses newcomers rather than forgetting a live count.
 */

export const UPSTREAM_WINDOW_MS = 60_000;

/** Clients counted at once (about 100 bytes each); beyond it newcomers wait for a window to end. */
const MAX_CLIENTS = 50_000;

interface Window {
  startedAt: number;
  calls: number;
}

export interface UpstreamBudget {
  /** Charges one upstream call to `client`; null when allowed, else the seconds until it may call again. */
  charge(client: string): number | null;
}

export function createUpstreamBudget(callsPerMinute: number, now: () => number): UpstreamBudget {
  // Windows in the order they started (all last as long): the front is always the next to end.
  const windows = new Map<string, Window>();
  const secondsUntilEnd = (window: Window, at: number) =>
    Math.max(1, Math.ceil((window.startedAt + UPSTREAM_WINDOW_MS - at) / 1000));
  return {
    charge(client) {
      const at = now();
      for (const [key, window] of windows) {
        if (at - window.startedAt < UPSTREAM_WINDOW_MS) break;
        windows.delete(key);
      }
      let window = windows.get(client);
      if (window === undefined) {
        const oldest = windows.values().next().value;
        if (oldest !== undefined && windows.size >= MAX_CLIENTS) return secondsUntilEnd(oldest, at);
        window = { startedAt: at, calls: 0 };
        windows.set(client, window);
      }
      if (window.calls >= callsPerMinute) return secondsUntilEnd(window, at);
      window.calls++;
      return null;
    },
  };
}
