/**
 * @module Login throttling, built so that nobody who merely reaches the port can lock the owner
 * out, and nobody with many addresses can guess at scale:
 *
 * - per client (address, IPv6 by /64): `maxAttempts` attempts a minute, held in bounded memory;
 *   and `clientFailures` failures in the window lock that client;
 * - per username: after `usernameFailures` failures in the window (from any clients), the
 *   username is under attack: every client that has itself failed for it within the window is
 *   refused until the lock ends, while a client that has not failed for it still signs in. An
 *   attacker gets at most `usernameFailures` guesses, then one per fresh address per window, and
 *   the owner with the right password from an address that has not been failing gets through.
 *
 * Failures are counted in `auth_lockouts` (failure-records.ts): they survive restarts, are shared
 * by every process on the database, and `unlockUsername` clears them from any process (a CLI).
 */
import type { StoreContext } from '../context.js';
import { usernameKey, usernameMaxLength } from '../users/fields.js';
import { clientKey } from './client-key.js';
import { createFailureRecords, neverLocks } from './failure-records.js';
import { WindowCounters } from './window-counters.js';

export interface LockoutOptions {
  /**
   * Failed sign-ins for one username within `windowSeconds` after which the clients that failed
   * for it are refused until the lock ends (clients that did not fail still sign in); default 10.
   */
  usernameFailures: number;
  /** Failed sign-ins from one client within `windowSeconds` that lock it; default 30. */
  clientFailures: number;
  /** Window over which failures are counted; default 900 s (15 minutes). */
  windowSeconds: number;
  /** How long a lock lasts; default 900 s (15 minutes). */
  lockSeconds: number;
}

export interface ThrottleOptions {
  /** Sign-in attempts allowed per client per window; default 5. */
  maxAttempts: number;
  /** Default 60 s. */
  windowSeconds: number;
  /** Most clients tracked in memory, and most live blocks; default 20,000 (about 5 MB each). */
  maxTrackedKeys: number;
  lockout: LockoutOptions;
}

export const defaultThrottleOptions: Readonly<ThrottleOptions> = Object.freeze({
  maxAttempts: 5,
  windowSeconds: 60,
  maxTrackedKeys: 20_000,
  lockout: Object.freeze({ usernameFailures: 10, clientFailures: 30, windowSeconds: 900, lockSeconds: 900 }),
});

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LoginThrottle {
  /** Counts one attempt and says whether it may proceed (checks locks first). */
  attempt(username: string, client: string | null | undefined): Promise<ThrottleDecision>;
  /** Counts a failed sign-in towards the lockouts; locks when a threshold is reached. */
  recordFailure(username: string, client: string | null | undefined): Promise<void>;
  /**
   * After a successful sign-in: forgets this client's failures for the username and gives the
   * attempt back to the client's per-minute counter (when given), so signing in often never
   * throttles a legitimate user. The username's count stays: a success does not hand an attacker
   * a fresh budget.
   */
  recordSuccess(username: string, client?: string | null): Promise<void>;
  /** Forgets every failure counted for a username, lifting its lock (an administrator's action). */
  unlockUsername(username: string): Promise<void>;
  /** Deletes expired lock rows; returns how many. */
  purgeExpired(): Promise<number>;
}

function userThrottleKey(username: string): string {
  return `user:${usernameKey(String(username).slice(0, usernameMaxLength))}`;
}

function clientThrottleKey(client: string | null | undefined): string {
  return `client:${clientKey(client)}`;
}

/** `pair:<username>|<client>`: usernames never contain `|`, so a username's pairs share a prefix. */
function pairPrefix(username: string): string {
  return `pair:${usernameKey(String(username).slice(0, usernameMaxLength))}|`;
}

const toSeconds = (ms: number) => Math.max(Math.ceil(ms / 1000), 1);

export function createLoginThrottle(context: StoreContext, options: ThrottleOptions): LoginThrottle {
  const { now } = context;
  const { lockout } = options;
  const clientAttempts = new WindowCounters({
    limit: options.maxAttempts,
    windowMs: options.windowSeconds * 1000,
    maxCounters: options.maxTrackedKeys,
    maxBlocks: options.maxTrackedKeys,
    now,
  });
  const records = createFailureRecords(context, lockout);
  const keysOf = (username: string, client: string | null | undefined) => {
    const clientKeyValue = clientThrottleKey(client);
    return {
      user: userThrottleKey(username),
      client: clientKeyValue,
      pair: `${pairPrefix(username)}${clientKeyValue.slice('client:'.length)}`,
    };
  };

  return {
    async attempt(username, client) {
      const keys = keysOf(username, client);
      const at = now();
      const found = await records.read([keys.user, keys.client, keys.pair]);
      const clientRecord = found.get(keys.client);
      const userRecord = found.get(keys.user);
      const locks = [
        clientRecord && clientRecord.failures >= lockout.clientFailures ? clientRecord.until : undefined,
        // The username's lock holds only against clients that have failed for it themselves.
        userRecord && userRecord.failures >= lockout.usernameFailures && found.has(keys.pair)
          ? userRecord.until
          : undefined,
      ].filter((until) => until !== undefined);
      if (locks.length > 0) return { allowed: false, retryAfterSeconds: toSeconds(Math.max(...locks) - at) };
      const decision = clientAttempts.hit(keys.client);
      return decision.allowed
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: toSeconds(decision.retryAfterMs) };
    },

    async recordFailure(username, client) {
      const keys = keysOf(username, client);
      await records.count(keys.user, lockout.usernameFailures);
      await records.count(keys.client, lockout.clientFailures);
      // The pair only marks "this client has failed for this username"; it never locks by itself.
      await records.count(keys.pair, neverLocks);
    },

    async recordSuccess(username, client) {
      if (client === undefined) return;
      const keys = keysOf(username, client);
      clientAttempts.refund(keys.client);
      await records.remove(keys.pair);
    },

    async unlockUsername(username) {
      await records.remove(userThrottleKey(username));
      await records.removePrefixed(pairPrefix(username));
    },

    purgeExpired: () => records.purgeExpired(),
  };
}
