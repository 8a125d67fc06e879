/**
 * @module Per-client fixed-window request counter (the original plugin's model): at most
 * `requests` per `windowMs`, counting from the client's first request of the window.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends (ms since epoch). */
  resetAt: number;
}

/** Above this many tracked clients, expired windows are swept before adding another. */
const sweepThreshold = 10_000;

export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly requests: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(client: string): RateLimitDecision {
    const now = this.now();
    let window = this.windows.get(client);
    if (!window || now - window.startedAt >= this.windowMs) {
      if (!window && this.windows.size >= sweepThreshold) this.sweep(now);
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

  private sweep(now: number) {
    for (const [client, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(client);
    }
  }
}
