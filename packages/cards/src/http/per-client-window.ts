/**
 * @module Fixed windows per client (a count of something each client may do per window), in
 * bounded memory that never forgets a live count: used for GitHub calls and new visitor counters.
 */

interface PerClientWindowOptions {
  /** How many charges one client may make per window. */
  limit: number;
  windowMs: number;
  /** Clients counted at once; beyond it newcomers wait until the oldest window ends. */
  maxClients: number;
  now: () => number;
}

interface PerClientWindow {
  /** Charges one to `client`: null when allowed, else the seconds until it may try again. */
  charge(client: string): number | null;
}

export function createPerClientWindow(options: PerClientWindowOptions): PerClientWindow {
  const { limit, windowMs, maxClients, now } = options;
  // Windows in the order they started (all as long): the front is always the next to end, so
  // expired ones leave in amortised constant time, never by a sweep over every client.
  const windows = new Map<string, { startedAt: number; count: number }>();
  const secondsUntilEnd = (startedAt: number, at: number) =>
    Math.max(1, Math.ceil((startedAt + windowMs - at) / 1000));
  return {
    charge(client) {
      const at = now();
      for (const [key, window] of windows) {
        if (at - window.startedAt < windowMs) break;
        windows.delete(key);
      }
      let window = windows.get(client);
      if (window === undefined) {
        const oldest = windows.values().next().value;
        if (oldest !== undefined && windows.size >= maxClients) return secondsUntilEnd(oldest.startedAt, at);
        window = { startedAt: at, count: 0 };
        windows.set(client, window);
      }
      if (window.count >= limit) return secondsUntilEnd(window.startedAt, at);
      window.count++;
      return null;
    },
  };
}
