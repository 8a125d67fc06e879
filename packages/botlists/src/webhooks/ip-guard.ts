/**
 * @module Per-IP request budget and ban after consecutive authentication failures, with an injectable clock.
 */

export interface IpGuardOptions {
  /** Requests per window (default 30). */
  max: number;
  /** Window length (default 60 000 ms). */
  windowMs: number;
  /** Consecutive failures before a ban (default 10). */
  banAfterFailures: number;
  /** Ban length (default 15 min). */
  banDurationMs: number;
  now: () => number;
}

interface IpState {
  windowStart: number;
  count: number;
  failures: number;
  bannedUntil: number;
}

/** Entries kept before old ones are swept, so a flood of spoofed addresses cannot exhaust memory. */
const MAX_TRACKED_IPS = 10_000;

export type GuardVerdict =
  | { allowed: true }
  | { allowed: false; status: 403 | 429; retryAfterSeconds: number };

export class IpGuard {
  private readonly state = new Map<string, IpState>();

  constructor(private readonly options: IpGuardOptions) {}

  /** Checks the ban, then charges one request against the window. */
  admit(ip: string): GuardVerdict {
    const now = this.options.now();
    const entry = this.entry(ip, now);
    if (entry.bannedUntil > now) {
      return { allowed: false, status: 403, retryAfterSeconds: Math.ceil((entry.bannedUntil - now) / 1000) };
    }
    if (now - entry.windowStart >= this.options.windowMs) {
      entry.windowStart = now;
      entry.count = 0;
    }
    entry.count++;
    if (entry.count > this.options.max) {
      const wait = entry.windowStart + this.options.windowMs - now;
      return { allowed: false, status: 429, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
    return { allowed: true };
  }

  /** One more consecutive failure; bans the IP when the threshold is reached. */
  fail(ip: string): void {
    const now = this.options.now();
    const entry = this.entry(ip, now);
    entry.failures++;
    if (this.options.banAfterFailures > 0 && entry.failures >= this.options.banAfterFailures) {
      entry.bannedUntil = now + this.options.banDurationMs;
      entry.failures = 0;
    }
  }

  succeed(ip: string): void {
    const entry = this.state.get(ip);
    if (entry) entry.failures = 0;
  }

  private entry(ip: string, now: number): IpState {
    let entry = this.state.get(ip);
    if (!entry) {
      if (this.state.size >= MAX_TRACKED_IPS) this.sweep(now);
      entry = { windowStart: now, count: 0, failures: 0, bannedUntil: 0 };
      this.state.set(ip, entry);
    }
    return entry;
  }

  /** Drops entries that are neither banned nor inside a live window; if none are stale, the oldest half. */
  private sweep(now: number): void {
    for (const [ip, e] of this.state) {
      if (e.bannedUntil <= now && now - e.windowStart >= this.options.windowMs) this.state.delete(ip);
    }
    if (this.state.size < MAX_TRACKED_IPS) return;
    let drop = Math.floor(this.state.size / 2);
    for (const ip of this.state.keys()) {
      if (drop-- <= 0) break;
      this.state.delete(ip);
    }
  }
}
