/**
 * @module One leaderboard over every indexed player: slots sorted by value (then by name), with
 * dense ranks. Built from scratch with two native numeric sorts, then kept up to date by
 * re-placing only the players that changed.
 */
import type { Roster } from './roster.js';
import { mergeChanges } from './sorted-merge.js';

/** A player to rank: its slot and its value (NaN counts as 0). */
export interface RankedValue {
  slot: number;
  value: number;
}

export class Ranking {
  /** Ranked slots, best first. */
  private order = new Int32Array(0);
  /** Dense rank of each position of `order`. */
  private ranks = new Uint32Array(0);
  /** Value of each ranked slot. */
  private values = new Float64Array(0);
  /** Whether each slot is ranked. */
  private ranked = new Uint8Array(0);
  /** Rebuilds and updates so far (what tests pin: a change must not rebuild). */
  readonly work = { rebuilds: 0, updates: 0, replaced: 0 };

  constructor(
    private readonly ascending: boolean,
    private readonly roster: Roster,
  ) {}

  get size(): number {
    return this.order.length;
  }

  /** Entries in memory (for the cache's budget). */
  get footprint(): number {
    return this.order.length + this.values.length;
  }

  slotAt(position: number): number {
    return this.order[position]!;
  }

  rankAt(position: number): number {
    return this.ranks[position]!;
  }

  valueAt(position: number): number {
    return this.values[this.order[position]!]!;
  }

  /**
   * Ranks exactly `players`, from scratch. Values become dense ranks through one sort, then
   * (rank, name position) pairs are packed into one float each and sorted natively, which is
   * several times faster than a sort with a comparator.
   */
  rebuild(players: readonly RankedValue[], slotCount: number): void {
    this.work.rebuilds++;
    this.ensureCapacity(slotCount);
    this.ranked.fill(0);
    const distinct = Float64Array.from(players, (player) => clean(player.value)).sort();
    let count = 0;
    for (let index = 0; index < distinct.length; index++) {
      if (index === 0 || distinct[index] !== distinct[count - 1]) distinct[count++] = distinct[index]!;
    }
    const names = Math.max(1, this.roster.size);
    const packed = new Float64Array(players.length);
    players.forEach((player, index) => {
      const value = clean(player.value);
      const position = this.roster.positionOf(player.slot);
      const dense = indexOf(distinct, count, value);
      packed[index] = (this.ascending ? dense : count - 1 - dense) * names + position;
      this.values[player.slot] = value;
      this.ranked[player.slot] = 1;
    });
    packed.sort();
    this.order = new Int32Array(players.length);
    this.ranks = new Uint32Array(players.length);
    packed.forEach((key, index) => {
      const rank = Math.floor(key / names);
      this.order[index] = this.roster.order[key - rank * names]!;
      this.ranks[index] = rank + 1;
    });
  }

  /** Re-places the given players: a value, or null when they are no longer ranked. */
  update(changes: readonly { slot: number; value: number | null }[], slotCount: number): void {
    this.work.updates++;
    this.ensureCapacity(slotCount);
    const removed = new Set<number>();
    const inserted: number[] = [];
    for (const { slot, value } of changes) {
      if (this.ranked[slot]) removed.add(slot);
      this.ranked[slot] = value === null ? 0 : 1;
      if (value === null) continue;
      this.values[slot] = clean(value);
      inserted.push(slot);
    }
    this.work.replaced += inserted.length;
    const merged = mergeChanges(this.order, (slot) => removed.has(slot), inserted, this.compare);
    this.order = merged.order;
    const ranks = new Uint32Array(merged.order.length);
    ranks.set(this.ranks.subarray(0, Math.min(merged.from, ranks.length)));
    for (let position = merged.from; position < ranks.length; position++) {
      if (position === 0) ranks[position] = 1;
      else {
        const same = this.values[merged.order[position]!] === this.values[merged.order[position - 1]!];
        ranks[position] = ranks[position - 1]! + (same ? 0 : 1);
      }
    }
    this.ranks = ranks;
  }

  private readonly compare = (a: number, b: number): number => {
    const first = this.values[a]!;
    const second = this.values[b]!;
    // Compared, not subtracted: Infinity - Infinity is NaN.
    if (first !== second) return first < second === this.ascending ? -1 : 1;
    return this.roster.positionOf(a) - this.roster.positionOf(b);
  };

  private ensureCapacity(slotCount: number) {
    if (this.values.length >= slotCount) return;
    const size = Math.max(slotCount, this.values.length * 2);
    const values = new Float64Array(size);
    values.set(this.values);
    const ranked = new Uint8Array(size);
    ranked.set(this.ranked);
    this.values = values;
    this.ranked = ranked;
  }
}

/** NaN (a custom stat dividing by zero) ranks as 0, so the order stays total. */
function clean(value: number): number {
  return Number.isNaN(value) ? 0 : value;
}

/** Position of `value` in the first `count` entries of the ascending `sorted`. */
function indexOf(sorted: Float64Array, count: number, value: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
