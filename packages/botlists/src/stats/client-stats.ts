/**
 * @module Stats from a discord.js-like client, aggregating every shard across processes through `client.shard`.
 */
import { BotlistsError } from '../errors.js';
import type { BotClientLike, Stats } from '../types.js';

function localGuildCount(client: BotClientLike): number {
  const count = client.guilds.cache?.size ?? client.guilds.size;
  if (typeof count !== 'number') throw new BotlistsError('client.guilds has neither cache.size nor size');
  return count;
}

/** Per-shard guild counts of one process, evaluated inside each process by broadcastEval. */
function countGuildsPerShard(c: {
  guilds: { cache: Map<string, { shardId?: number }> };
}): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const guild of c.guilds.cache.values()) {
    const id = guild.shardId ?? 0;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

/**
 * Server count, shard count and per-shard counts. Sharded bots ask every process (a failure means
 * a shard is not ready: we throw rather than post a partial total that would lower the count).
 */
export async function statsFromClient(client: BotClientLike): Promise<Stats> {
  const shard = client.shard;
  if (!shard?.count || shard.count <= 1) return { serverCount: localGuildCount(client) };
  const perShard = new Array<number>(shard.count).fill(0);
  if (shard.broadcastEval) {
    const maps = (await shard.broadcastEval(countGuildsPerShard as (c: never) => unknown)) as Record<
      string,
      number
    >[];
    for (const map of maps)
      for (const [id, n] of Object.entries(map)) perShard[Number(id)] = (perShard[Number(id)] ?? 0) + n;
  } else if (shard.fetchClientValues) {
    const values = await shard.fetchClientValues('guilds.cache.size');
    const counts = values.map(Number);
    const serverCount = counts.reduce((a, b) => a + b, 0);
    // One value per process: per-shard counts are only known when each process runs one shard.
    return counts.length === shard.count
      ? { serverCount, shardCount: shard.count, shards: counts }
      : { serverCount, shardCount: shard.count };
  } else {
    throw new BotlistsError('client.shard exposes neither broadcastEval nor fetchClientValues');
  }
  return { serverCount: perShard.reduce((a, b) => a + b, 0), shardCount: shard.count, shards: perShard };
}
