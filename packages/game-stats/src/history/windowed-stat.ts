/**
 * @module A statistic over a window: what each player gained since the snapshot the window
 * starts at (their value now minus their value then; a value that went down, such as a reset
 * file, gains 0). Ranked, cached and kept up to date like any statistic: its name carries the
 * snapshot time, and a snapshot already taken never changes.
 */
import { allocateStats, type CompactStats, statValue } from '../index/compact-stats.js';
import type { ResolvedStat } from '../query/stat-resolver.js';
import { changedEntries, type StatHistory } from './stat-history.js';

export function windowedStat(stat: ResolvedStat, history: StatHistory, from: number): ResolvedStat {
  const gain = (uuid: string, stats: CompactStats | null) => {
    const now = stats ? stat.compute(stats) : 0;
    const before = history.recordAt(uuid, from);
    return Math.max(0, now - (before ? stat.compute(before) : 0));
  };
  return {
    name: `${stat.name}\u0000since\u0000${from}`,
    isPlaytime: stat.isPlaytime,
    revision: stat.revision,
    compute: (stats) => stat.compute(stats),
    computeFor: (player) => gain(player.uuid, player.stats),
  };
}

/** Per key, what `now` gained over `before` (keys that did not grow left out). */
export function gainedStats(before: CompactStats | null, now: CompactStats): CompactStats {
  const changes = changedEntries(before, now);
  const keyIds: number[] = [];
  const values: number[] = [];
  for (let at = 0; at < changes.length; at += 2) {
    const keyId = changes[at]!;
    const gained = changes[at + 1]! - (before ? statValue(before, keyId) : 0);
    if (gained > 0) {
      keyIds.push(keyId);
      values.push(gained);
    }
  }
  const stats = allocateStats(keyIds.length);
  stats.keyIds.set(keyIds);
  stats.values.set(values);
  return stats;
}
