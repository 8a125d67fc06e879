/**
 * @module Login throttling: a per-minute attempt limit per client (address, IPv6 by /64) and per
 * username, held in bounded memory; and lockouts after repeated failures, written to
 * `auth_lockouts` so they survive restarts, are shared by every process on the database and can
 * never be pushed out by memory pressure.
 */
import type { StoreContext } from '../context.js';
import { toNumber } from '../schema/tables.js';
import { usernameKey, usernameMaxLength } from '../users/fields.js';
import { clientKey } from './client-key.js';
import { WindowCounters } from './window-counters.js';

export interface LockoutOptions {
  /** Failed sign-ins for one username within `windowSeconds` that lock it; default 10. */
  usernameFailures: number;
  /** Failed sign-ins from one client within `windowSeconds` that lock it; default 30. */
  clientFailures: number;
  /** Window over which failures are counted; default 900 s (15 minutes). */
  windowSeconds: number;
  /** How long a lock lasts; default 900 s (15 minutes). */
  lockSeconds: number;
}

export interface ThrottleOptions {
  /** Sign-in attempts allowed per client and per username per window; default 5. */
  maxAttempts: number;
  /** Default 60 s. */
  windowSeconds: number;
  /** Most keys tracked in memory per kind (clients, usernames), and most live blocks; default 20,000 (about 5 MB each). */
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
   * After a successful sign-in: forgets the username's failures and gives the attempt back to the
   * per-minute counters of the username and (when given) the client, so signing in often never
   * throttles a legitimate user.
   */
  recordSuccess(username: string, client?: string | null): void;
  /** Lifts the lock of a username (an administrator's action). */
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

const toSeconds = (ms: number) => Math.max(Math.ceil(ms / 1000), 1);

export function createLoginThrottle(context: StoreContext, options: ThrottleOptions): LoginThrottle {
  const { db, now } = context;
  const counters = (limit: number, windowSeconds: number) =>
    new WindowCounters({
      limit,
      windowMs: windowSeconds * 1000,
      maxCounters: options.maxTrackedKeys,
      maxBlocks: options.maxTrackedKeys,
      now,
    });
  const clientAttempts = counters(options.maxAttempts, options.windowSeconds);
  const userAttempts = counters(options.maxAttempts, options.windowSeconds);
  const { lockout } = options;
  const clientFailures = counters(lockout.clientFailures, lockout.windowSeconds);
  const userFailures = counters(lockout.usernameFailures, lockout.windowSeconds);

  async function lock(key: string, failures: number): Promise<void> {
    const at = now();
    const lockedUntil = at + lockout.lockSeconds * 1000;
    await db
      .insertInto('auth_lockouts')
      .values({ key, locked_until: lockedUntil, failures, created_at: at })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({ locked_until: lockedUntil, failures, created_at: at }),
      )
      .execute();
  }

  async function countFailure(counter: WindowCounters, key: string, threshold: number): Promise<void> {
    const decision = counter.hit(key);
    if (decision.allowed && counter.blockedFor(key) === undefined) return;
    counter.reset(key);
    await lock(key, threshold);
  }

  return {
    async attempt(username, client) {
      const userKey = userThrottleKey(username);
      const clientKeyValue = clientThrottleKey(client);
      const at = now();
      const locks = await db
        .selectFrom('auth_lockouts')
        .select(['locked_until'])
        .where('key', 'in', [userKey, clientKeyValue])
        .where('locked_until', '>', at)
        .execute();
      if (locks.length > 0) {
        const until = Math.max(...locks.map((row) => toNumber(row.locked_until)));
        return { allowed: false, retryAfterSeconds: toSeconds(until - at) };
      }
      // Both counters take the attempt, so neither kind of spraying gets a free pass.
      const byClient = clientAttempts.hit(clientKeyValue);
      const byUser = userAttempts.hit(userKey);
      const waits = [byClient, byUser].flatMap((decision) =>
        decision.allowed ? [] : [decision.retryAfterMs],
      );
      return waits.length === 0
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: toSeconds(Math.max(...waits)) };
    },

    async recordFailure(username, client) {
      await countFailure(userFailures, userThrottleKey(username), lockout.usernameFailures);
      await countFailure(clientFailures, clientThrottleKey(client), lockout.clientFailures);
    },

    recordSuccess(username, client) {
      const userKey = userThrottleKey(username);
      userFailures.reset(userKey);
      userAttempts.refund(userKey);
      if (client !== undefined) clientAttempts.refund(clientThrottleKey(client));
    },

    async unlockUsername(username) {
      const key = userThrottleKey(username);
      userFailures.reset(key);
      userAttempts.reset(key);
      await db.deleteFrom('auth_lockouts').where('key', '=', key).execute();
    },

    async purgeExpired() {
      const result = await db
        .deleteFrom('auth_lockouts')
        .where('locked_until', '<=', now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
