/**
 * @module Fixed-window attempt counters per key with a hard bound on memory that never evicts a
 * block before it expires.
 *
 * Counters below the limit live in an LRU map: when it is full the least recently used counter is
 * dropped (that only forgets progress towards a block). A key that reaches the limit moves to a
 * separate map of blocks, kept until its window ends. Every block lasts one window, so the oldest
 * block is always the first to expire: the blocks map is trimmed from its front in O(1). When the
 * blocks map itself is full of live blocks, a key reaching the limit is refused (fail closed) and
 * its counter stays at the limit, rather than any existing block being forgotten.
 */

interface WindowCountersOptions {
  /** Attempts allowed per key and window. */
  limit: number;
  windowMs: number;
  /** Most counters below the limit kept (LRU). */
  maxCounters: number;
  /** Most live blocks kept; beyond that, new keys are refused until one expires. */
  maxBlocks: number;
  now: () => number;
}

interface Counter {
  count: number;
  windowStart: number;
}

type WindowDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class WindowCounters {
  readonly #counters = new Map<string, Counter>();
  /** Key -> time the block ends, in insertion (and so expiry) order. */
  readonly #blocks = new Map<string, number>();

  constructor(private readonly options: WindowCountersOptions) {}

  /** Counts one attempt for `key` and says whether it is within the limit. */
  hit(key: string): WindowDecision {
    const at = this.options.now();
    this.#dropExpiredBlocks(at);
    const blockedUntil = this.#blocks.get(key);
    if (blockedUntil !== undefined) return { allowed: false, retryAfterMs: blockedUntil - at };

    let counter = this.#counters.get(key);
    this.#counters.delete(key);
    if (!counter || at - counter.windowStart >= this.options.windowMs)
      counter = { count: 0, windowStart: at };
    counter.count++;
    if (counter.count < this.options.limit) {
      this.#remember(key, counter);
      return { allowed: true };
    }
    // This attempt is the last one allowed; later ones in the window are refused.
    const until = counter.windowStart + this.options.windowMs;
    if (this.#blocks.size >= this.options.maxBlocks) {
      // No room for another block: refuse, and keep the counter at the limit so the next attempt
      // is refused too (it takes maxCounters other keys pushing it out of the LRU to forget it).
      this.#remember(key, counter);
      const oldest = this.#blocks.values().next().value ?? at;
      return { allowed: false, retryAfterMs: Math.max(oldest - at, 1) };
    }
    this.#blocks.set(key, until);
    return counter.count === this.options.limit
      ? { allowed: true }
      : { allowed: false, retryAfterMs: until - at };
  }

  /** The block on `key`, without counting an attempt. */
  blockedFor(key: string): number | undefined {
    const at = this.options.now();
    this.#dropExpiredBlocks(at);
    const until = this.#blocks.get(key);
    return until === undefined ? undefined : until - at;
  }

  /**
   * Gives back one attempt of `key` (it turned out to be a successful sign-in), lifting the block
   * that attempt may have set by reaching the limit.
   */
  refund(key: string): void {
    const blockedUntil = this.#blocks.get(key);
    if (blockedUntil !== undefined) {
      this.#blocks.delete(key);
      this.#remember(key, {
        count: this.options.limit - 1,
        windowStart: blockedUntil - this.options.windowMs,
      });
      return;
    }
    const counter = this.#counters.get(key);
    if (counter && counter.count > 0) counter.count--;
  }

  /** Forgets the counter and block of `key` (after a successful sign-in, for the lockout counters). */
  reset(key: string): void {
    this.#counters.delete(key);
    this.#blocks.delete(key);
  }

  get size(): { counters: number; blocks: number } {
    return { counters: this.#counters.size, blocks: this.#blocks.size };
  }

  #remember(key: string, counter: Counter): void {
    this.#counters.set(key, counter);
    if (this.#counters.size > this.options.maxCounters) {
      const leastRecent = this.#counters.keys().next().value;
      if (leastRecent !== undefined) this.#counters.delete(leastRecent);
    }
  }

  #dropExpiredBlocks(at: number): void {
    for (const [key, until] of this.#blocks) {
      if (until > at) return;
      this.#blocks.delete(key);
    }
  }
}
