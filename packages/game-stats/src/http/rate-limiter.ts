/**
 * @module Per-client fixed-window request counter (the original plugin's model): at most
 * `requests` per `windowMs`, counting from the client's first request of the window.
 */

interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends (ms since epoch). */
  resetAt: number;
}

/**
 * Clients counted at once (about 100 bytes each). Reaching it takes this many distinct clients
 * (IPv4 addresses, IPv6 /64s) inside one window; newcomers beyond it wait for a window to end.
 */
const defaultMaxClients = 100_000;

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowRateLimiter {
  /**
   * Windows in the order they started: every window lasts `windowMs`, so the front of the map
   * is always the next to expire and a sweep stops at the first live one (amortised O(1) a hit).
   */
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly requests: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxClients: number = defaultMaxClients,
  ) {}

  hit(client: string): RateLimitDecision {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(client);
    if (!window) {
      if (this.windows.size >= this.maxClients) return this.full();
      window = { startedAt: now, count: 0 };
      this.windows.set(client, window);
    }
    window.count++;
    return {
      allowed: window.count <= this.requests,
      limit: this.requests,
      remaining: Math.max(0, this.requests - window.count),
      resetAt: window.startedAt + this.windowMs,
    };
  }

  /** Every tracked window is live: a new client is refused until the oldest ends (never evicted). */
  private full(): RateLimitDecision {
    const oldest = this.windows.values().next().value as Window;
    return { allowed: false, limit: this.requests, remaining: 0, resetAt: oldest.startedAt + this.windowMs };
  }

  private sweep(now: number) {
    for (const [client, window] of this.windows) {
      if (now - window.startedAt < this.windowMs) return;
      this.windows.delete(client);
    }
  }
}
