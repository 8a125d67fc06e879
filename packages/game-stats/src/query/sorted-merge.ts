/**
 * @module Keeps a sorted array of slots up to date when a few of them change: drop the changed
 * slots, then insert their new versions at binary-searched positions, so an update costs
 * O(k log n) comparisons plus block copies instead of a full O(n log n) re-sort.
 */

/** Order of two slots: negative when `a` comes first. Must be a strict total order. */
type SlotOrder = (a: number, b: number) => number;

interface SortedSlots {
  /** The slots, sorted. */
  order: Int32Array<ArrayBuffer>;
  /** Slots whose position changed: every slot at or after `from`. */
  from: number;
}

/**
 * Returns `order` without the slots marked in `remove` and with `insert` added, still sorted by
 * `compare`. `insert` may hold slots that were removed (their new version).
 */
export function mergeChanges(
  order: Int32Array,
  remove: (slot: number) => boolean,
  insert: number[],
  compare: SlotOrder,
): SortedSlots {
  let kept = 0;
  let firstRemoved = order.length;
  const compacted = new Int32Array(order.length);
  for (let position = 0; position < order.length; position++) {
    const slot = order[position]!;
    if (remove(slot)) {
      if (firstRemoved === order.length) firstRemoved = position;
    } else compacted[kept++] = slot;
  }
  insert.sort(compare);
  const merged = new Int32Array(kept + insert.length);
  let copied = 0;
  let from = firstRemoved;
  insert.forEach((slot, index) => {
    const at = lowerBound(compacted, copied, kept, slot, compare);
    merged.set(compacted.subarray(copied, at), copied + index);
    merged[at + index] = slot;
    copied = at;
    from = Math.min(from, at + index);
  });
  merged.set(compacted.subarray(copied, kept), copied + insert.length);
  return { order: merged, from };
}

/** First position in `sorted[low, high)` whose slot sorts after `slot`. */
function lowerBound(sorted: Int32Array, low: number, high: number, slot: number, compare: SlotOrder): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(sorted[middle]!, slot) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
