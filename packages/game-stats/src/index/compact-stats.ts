/**
 * @module One player's statistics as two parallel typed arrays sorted by key id: about 12 bytes
 * a value, looked up by binary search.
 */
import type { StatDump } from '../stats/stats-file.js';
import type { StatKeyTable } from './stat-key-table.js';

export interface CompactStats {
  readonly keyIds: Uint32Array;
  /** Float64 because tick counts of long-lived players pass 2^31. */
  readonly values: Float64Array;
}

/** Packs dumps (one per world) into one compact record, summing equal keys. */
export function packStats(dumps: readonly StatDump[], table: StatKeyTable): CompactStats {
  const sums = new Map<number, number>();
  for (const dump of dumps) {
    for (const [category, entries] of Object.entries(dump)) {
      for (const [key, value] of Object.entries(entries)) {
        const id = table.intern(category, key);
        sums.set(id, (sums.get(id) ?? 0) + value);
      }
    }
  }
  const keyIds = Uint32Array.from(sums.keys()).sort();
  const values = new Float64Array(keyIds.length);
  keyIds.forEach((id, index) => {
    values[index] = sums.get(id) ?? 0;
  });
  return { keyIds, values };
}

/** Value of one key id, 0 when absent. */
export function statValue(stats: CompactStats, keyId: number): number {
  let low = 0;
  let high = stats.keyIds.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = stats.keyIds[middle]!;
    if (candidate === keyId) return stats.values[middle]!;
    if (candidate < keyId) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
}

/** Sum of every key of one category id. */
export function categoryTotal(stats: CompactStats, categoryId: number, table: StatKeyTable): number {
  let total = 0;
  for (let index = 0; index < stats.keyIds.length; index++) {
    if (table.categoryOfKey[stats.keyIds[index]!] === categoryId) total += stats.values[index]!;
  }
  return total;
}

/** Back to the nested `{category: {key: value}}` form, optionally limited to some categories. */
export function unpackStats(
  stats: CompactStats,
  table: StatKeyTable,
  keepCategory: (category: string) => boolean = () => true,
): StatDump {
  const dump: StatDump = {};
  for (let index = 0; index < stats.keyIds.length; index++) {
    const keyId = stats.keyIds[index]!;
    const category = table.categoryNames[table.categoryOfKey[keyId]!]!;
    if (!keepCategory(category)) continue;
    const entries = dump[category] ?? {};
    dump[category] = entries;
    entries[table.keyNames[keyId]!] = stats.values[index]!;
  }
  return dump;
}
