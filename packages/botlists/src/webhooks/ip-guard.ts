/**
 * @module Per-client request budget and ban after consecutive authentication failures, with an
 * injectable clock. Memory is bounded, and a full table refuses newcomers rather than forgetting
 * a live ban or count.
 */
import { ExpiringMap } from './expiring-map.js';

interface IpGuardOptions {
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

/**
 * Clients tracked at once, per table (about 100 bytes each). Reaching it takes this many distinct
 * addresses (IPv6: /64 networks) inside one window; the overflow is answered 429 until one frees.
 */
const MAX_TRACKED_CLIENTS = 100_000;

interface Window {
  count: number;
  start: number;
}

type GuardVerdict = { allowed: true } | { allowed: false; status: 403 | 429; retryAfterSeconds: number };

const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class IpGuard {
  private readonly windows = new ExpiringMap<Window>(MAX_TRACKED_CLIENTS);
  /** Failures are remembered for a ban's length after the last one, so a slow guesser is still banned. */
  private readonly failures = new ExpiringMap<number>(MAX_TRACKED_CLIENTS);
  private readonly bans = new ExpiringMap<number>(MAX_TRACKED_CLIENTS);

  constructor(private readonly options: IpGuardOptions) {}

  /** Checks the ban, then charges one request against the client's window. */
  admit(client: string): GuardVerdict {
    const now = this.options.now();
    const bannedUntil = this.bans.get(client, now);
    if (bannedUntil !== undefined)
      return { allowed: false, status: 403, retryAfterSeconds: retryAfter(bannedUntil - now) };
    let window = this.windows.get(client, now);
    if (!window) {
      window = { count: 0, start: now };
      if (!this.windows.set(client, window, now + this.options.windowMs, now)) {
        return { allowed: false, status: 429, retryAfterSeconds: retryAfter(this.options.windowMs) };
      }
    }
    window.count++;
    if (window.count > this.options.max) {
      return {
        allowed: false,
        status: 429,
        retryAfterSeconds: retryAfter(window.start + this.options.windowMs - now),
      };
    }
    return { allowed: true };
  }

  /** One more consecutive failure; bans the client when the threshold is reached. */
  fail(client: string): void {
    const { banAfterFailures, banDurationMs } = this.options;
    const now = this.options.now();
    const failures = (this.failures.get(client, now) ?? 0) + 1;
    const until = now + banDurationMs;
    if (banAfterFailures > 0 && failures >= banAfterFailures && this.bans.set(client, until, until, now)) {
      this.failures.delete(client);
      return;
    }
    // A full ban table keeps the count, so the next failure tries again.
    this.failures.set(client, failures, until, now);
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }
}
