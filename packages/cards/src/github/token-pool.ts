/**
 * @module Pool of GitHub tokens: picks the token with the most remaining budget and benches
 * exhausted ones until their reset.
 */

interface TokenState {
  readonly token: string;
  /** Last known remaining budget; unknown tokens start optimistic so each gets tried. */
  remaining: number;
  /** Epoch ms before which the token must not be used. */
  benchedUntil: number;
}

/** An anonymous entry: REST works without a token (60/h); GraphQL needs one. */
const ANONYMOUS = '';
const UNKNOWN_BUDGET = 5_000;

export interface TokenPool {
  /** The usable token with the most remaining budget, or undefined when all are benched. */
  pick(): string | undefined;
  /** Records the budget headers of a response. */
  record(token: string, remaining: number | undefined): void;
  /** Takes a token out of rotation until `untilMs` (its reset, or now + retry-after). */
  bench(token: string, untilMs: number): void;
  /** Seconds until the first benched token comes back (for Retry-After). */
  secondsUntilAvailable(): number;
  readonly size: number;
}

export function createTokenPool(tokens: readonly string[], now: () => number = Date.now): TokenPool {
  const states: TokenState[] = (tokens.length > 0 ? tokens : [ANONYMOUS]).map((token) => ({
    token,
    remaining: UNKNOWN_BUDGET,
    benchedUntil: 0,
  }));
  const byToken = new Map(states.map((state) => [state.token, state]));

  return {
    size: states.length,
    pick() {
      const time = now();
      let best: TokenState | undefined;
      for (const state of states) {
        if (state.benchedUntil > time) continue;
        if (best === undefined || state.remaining > best.remaining) best = state;
      }
      return best?.token;
    },
    record(token, remaining) {
      const state = byToken.get(token);
      if (state !== undefined && remaining !== undefined && Number.isFinite(remaining)) {
        state.remaining = remaining;
      }
    },
    bench(token, untilMs) {
      const state = byToken.get(token);
      if (state === undefined) return;
      state.benchedUntil = Math.max(state.benchedUntil, untilMs);
      // A benched token is back with a fresh budget after its reset.
      state.remaining = UNKNOWN_BUDGET;
    },
    secondsUntilAvailable() {
      const time = now();
      const soonest = Math.min(...states.map((state) => state.benchedUntil));
      return Math.max(1, Math.ceil((soonest - time) / 1000));
    },
  };
}
