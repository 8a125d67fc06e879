/**
 * @module Stats validation: a count is never zeroed or corrupted by a bad input.
 */
import { BotlistsError } from '../errors.js';
import type { Stats } from '../types.js';

const isCount = (n: unknown, min: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min;

/**
 * Checks and copies stats. `serverCount` must be an integer ≥ 1 (a client that is not ready
 * reports 0, and posting it would wipe the listing); `shards` entries must be integers ≥ 0.
 */
export function validateStats(stats: Stats): Stats {
  if (!stats || typeof stats !== 'object') throw new BotlistsError('stats must be an object');
  if (!isCount(stats.serverCount, 1)) {
    throw new BotlistsError(
      `serverCount must be an integer >= 1 (got ${String(stats.serverCount)}); nothing posted`,
    );
  }
  const clean: Stats = { serverCount: stats.serverCount };
  if (stats.shardCount !== undefined && stats.shardCount !== null) {
    if (!isCount(stats.shardCount, 1)) throw new BotlistsError('shardCount must be an integer >= 1');
    clean.shardCount = stats.shardCount;
  }
  if (stats.shardId !== undefined && stats.shardId !== null) {
    if (!isCount(stats.shardId, 0)) throw new BotlistsError('shardId must be an integer >= 0');
    clean.shardId = stats.shardId;
  }
  if (stats.shards !== undefined && stats.shards !== null) {
    if (!Array.isArray(stats.shards) || !stats.shards.every((n) => isCount(n, 0))) {
      throw new BotlistsError('shards must be an array of integers >= 0');
    }
    if (stats.shards.length > 0) clean.shards = [...stats.shards];
  }
  return clean;
}
