/**
 * @module Visitor counter in Redis: one Lua script per visit, so counting, the global budget
 * and the retention rule are atomic across instances. Besides the counters (`<prefix><key>`),
 * a hash `<prefix without its last colon>#usage` holds what they cost (`counters`, `bytes`) and
 * a sorted set `...#idle` the counters still under the retention count, scored by last visit.
 */
import type { Redis } from 'ioredis';
import { PURGE_BATCH, purgeAtMostHourly } from './purge-schedule.js';
import {
  COUNTER_OVERHEAD_BYTES,
  counterBytes,
  DAY_MS,
  resolveVisitorLimits,
  VisitorBudgetError,
  type VisitorStore,
  type VisitorStoreLimits,
} from './visitor-store.js';

// KEYS: counter, usage, idle. ARGV: key, cost, maxCounters, maxBytes, now, retention count.
// Returns the new count, or -1 when a new counter would pass the budget.
const incrementScript = `
local count
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PERSIST', KEYS[1])
  count = redis.call('INCR', KEYS[1])
else
  local counters = tonumber(redis.call('HGET', KEYS[2], 'counters') or '0')
  local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
  local cost = tonumber(ARGV[2])
  if counters >= tonumber(ARGV[3]) or bytes + cost > tonumber(ARGV[4]) then return -1 end
  redis.call('HINCRBY', KEYS[2], 'counters', 1)
  redis.call('HINCRBY', KEYS[2], 'bytes', cost)
  count = redis.call('INCR', KEYS[1])
end
if count <= tonumber(ARGV[6]) then
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
else
  redis.call('ZREM', KEYS[3], ARGV[1])
end
return count`;

// KEYS: usage, idle. ARGV: cutoff, counter prefix, batch, overhead. Returns how many it removed.
const purgeScript = `
local idle = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local bytes = 0
for _, key in ipairs(idle) do
  redis.call('DEL', ARGV[2] .. key)
  redis.call('ZREM', KEYS[2], key)
  bytes = bytes + string.len(key) + tonumber(ARGV[4])
end
if #idle > 0 then
  redis.call('HINCRBY', KEYS[1], 'counters', -#idle)
  redis.call('HINCRBY', KEYS[1], 'bytes', -bytes)
end
return #idle`;

/** The two scripts as commands of the connection (`defineCommand`). */
interface VisitorScripts {
  cardsVisitorIncrement(...keysThenArgs: Array<string | number>): Promise<unknown>;
  cardsVisitorPurge(...keysThenArgs: Array<string | number>): Promise<unknown>;
}

/** The TTL earlier versions gave a counter at its first visit (removed at its second). */
const LEGACY_SINGLE_VISIT_TTL_MS = 30 * DAY_MS;

/**
 * Single-visit counters of earlier versions expire by TTL, which would not give their budget
 * back: they lose it and join the idle set at their last visit, so the retention rule removes
 * them instead (at the same time, with the default rule).
 */
async function adoptLegacyExpiries(
  redis: Redis,
  keys: readonly string[],
  prefix: string,
  idleKey: string,
  at: number,
): Promise<void> {
  const ttls = (await keys.reduce((batch, key) => batch.pttl(key), redis.pipeline()).exec()) ?? [];
  const adopt = redis.pipeline();
  ttls.forEach(([error, ttl], index) => {
    if (error !== null || typeof ttl !== 'number' || ttl <= 0) return;
    const key = keys[index]!;
    adopt.zadd(idleKey, at + ttl - LEGACY_SINGLE_VISIT_TTL_MS, key.slice(prefix.length)).persist(key);
  });
  if (adopt.length > 0) await adopt.exec();
}

export interface RedisVisitorStoreOptions extends VisitorStoreLimits {
  /** Clock of the retention rule; default `Date.now`. */
  now?: () => number;
}

/** Counts visits in `redis` under `prefix` (which should end with `:`, as the default does). */
export async function createRedisVisitorStore(
  redis: Redis,
  prefix: string,
  options: RedisVisitorStoreOptions = {},
): Promise<VisitorStore> {
  const now = options.now ?? Date.now;
  const { budget, retention } = resolveVisitorLimits(options);
  // Sent as EVALSHA: the script text goes only when Redis lacks it (a NOSCRIPT answer).
  redis.defineCommand('cardsVisitorIncrement', { numberOfKeys: 3, lua: incrementScript });
  redis.defineCommand('cardsVisitorPurge', { numberOfKeys: 2, lua: purgeScript });
  const scripts = redis as Redis & VisitorScripts;
  const meta = prefix.endsWith(':') ? prefix.slice(0, -1) : prefix;
  const usageKey = `${meta}#usage`;
  const idleKey = `${meta}#idle`;

  // Counters written before the budget existed are measured once, when the usage hash is missing.
  if ((await redis.exists(usageKey)) === 0) {
    let counters = 0;
    let bytes = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1_000 }) as AsyncIterable<
      string[]
    >) {
      counters += keys.length;
      bytes += keys.reduce((sum, key) => sum + counterBytes(key.slice(prefix.length)), 0);
      await adoptLegacyExpiries(redis, keys, prefix, idleKey, now());
    }
    await redis.hsetnx(usageKey, 'counters', counters);
    await redis.hsetnx(usageKey, 'bytes', bytes);
  }

  const purge = async () => {
    const cutoff = now() - retention.idleMs;
    let removed: number;
    do {
      removed = Number(
        await scripts.cardsVisitorPurge(
          usageKey,
          idleKey,
          cutoff,
          prefix,
          PURGE_BATCH,
          COUNTER_OVERHEAD_BYTES,
        ),
      );
    } while (removed === PURGE_BATCH);
  };
  await purge();
  const purgeIfDue = purgeAtMostHourly(purge, now);

  return {
    async increment(key) {
      await purgeIfDue();
      const seen = now();
      const count = Number(
        await scripts.cardsVisitorIncrement(
          prefix + key,
          usageKey,
          idleKey,
          key,
          counterBytes(key),
          budget.maxCounters,
          budget.maxBytes,
          seen,
          retention.maxCount,
        ),
      );
      if (count === -1) throw new VisitorBudgetError();
      return count;
    },
    async peek(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async close() {
      await redis.quit();
    },
  };
}
