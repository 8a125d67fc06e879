/**
 * @module One player's statistics as two parallel typed arrays sorted by key id: about 12 bytes
 * a value, looked up by binary search. The arrays are views cut from shared 64 KiB slabs, so
 * 100,000 players make about 1,500 buffers for the garbage collector instead of 200,000.
 */
import type { StatDump } from '../stats/stats-file.js';
import type { StatKeyTable } from './stat-key-table.js';

export interface CompactStats {
  readonly keyIds: Uint32Array;
  /** Float64 because tick counts of long-lived players pass 2^31. */
  readonly values: Float64Array;
}

/** Size of a shared slab; records larger than a quarter of it get a buffer of their own. */
const slabBytes = 64 * 1024;
let slab = new ArrayBuffer(slabBytes);
let slabUsed = 0;

/**
 * Room for `length` entries. A slab is freed by the garbage collector once no record cut from
 * it is alive any more (records replaced by a newer read of the file die with it).
 */
export function allocateStats(length: number): CompactStats {
  // Float64 values first: offsets stay multiples of 8.
  const bytes = length * 12 + ((length * 4) % 8);
  if (bytes > slabBytes / 4) {
    const own = new ArrayBuffer(bytes);
    return { values: new Float64Array(own, 0, length), keyIds: new Uint32Array(own, length * 8, length) };
  }
  if (slabUsed + bytes > slabBytes) {
    slab = new ArrayBuffer(slabBytes);
    slabUsed = 0;
  }
  const offset = slabUsed;
  slabUsed += bytes;
  return {
    values: new Float64Array(slab, offset, length),
    keyIds: new Uint32Array(slab, offset + length * 8, length),
  };
}

/** Packs dumps (one per world) into one compact record, summing equal keys. */
export function packStats(dumps: readonly StatDump[], table: StatKeyTable): CompactStats {
  const ids: number[] = [];
  const amounts: number[] = [];
  for (const dump of dumps) {
    for (const category in dump) {
      const entries = dump[category]!;
      for (const key in entries) {
        ids.push(table.intern(category, key));
        amounts.push(entries[key]!);
      }
    }
  }
  const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
  const keyIds: number[] = [];
  const values: number[] = [];
  for (const index of order) {
    // Equal ids are adjacent after sorting: the same key in several worlds is summed.
    if (keyIds.length > 0 && keyIds[keyIds.length - 1] === ids[index])
      values[values.length - 1]! += amounts[index]!;
    else {
      keyIds.push(ids[index]!);
      values.push(amounts[index]!);
    }
  }
  const stats = allocateStats(keyIds.length);
  stats.keyIds.set(keyIds);
  stats.values.set(values);
  return stats;
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
