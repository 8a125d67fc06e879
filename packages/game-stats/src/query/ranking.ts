/**
 * @module One leaderboard over every indexed player: slots sorted by value (then by name), with
 * dense ranks. Built from scratch with numeric sorts, then kept up to date by re-placing only
 * the players that changed. Both can run in bounded steps (`rebuildSteps`, `updateSteps`): each
 * step handles at most `step` values, and the new arrays replace the old ones only after the last
 * step, so between two steps the ranking still answers from its previous state.
 */
import { type FrozenRoster, frozenPosition, type Roster } from './roster.js';
import { sortInSteps } from './stepped-sort.js';

/** A player to rank: its slot and its value (NaN counts as 0). */
export interface RankedValue {
  slot: number;
  value: number;
}

/** A player to re-place: its new value, or null when it is no longer ranked. */
export interface RankChange {
  slot: number;
  value: number | null;
}

/**
 * The steps of a rebuild or an update: each yields how many values it handled. Ties are ordered
 * by the roster as it was at the first step (see `Roster.frozen`).
 */
export type RankingSteps = Generator<number, void>;

export class Ranking {
  /** Ranked slots, best first. */
  private order = new Int32Array(0);
  /** Dense rank of each position of `order`. */
  private ranks = new Uint32Array(0);
  /** Value of each ranked slot. */
  private values = new Float64Array(0);
  /** Whether each slot is ranked. */
  private ranked = new Uint8Array(0);
  /**
   * Rebuilds and updates so far, and the most values handled in one step of the stepped ones:
   * what tests pin (a change must not rebuild; no step handles more than its bound).
   */
  readonly work = { rebuilds: 0, updates: 0, replaced: 0, longestStep: 0 };

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

  /** Ranks exactly the listed ones of `players`, from scratch, in one go. */
  rebuild(players: readonly RankedValue[], slotCount: number): void {
    runToEnd(this.rebuildPhases(players, slotCount, Number.POSITIVE_INFINITY));
  }

  /** Re-places the given players in one go. */
  update(changes: readonly RankChange[], slotCount: number): void {
    runToEnd(this.updatePhases(changes, slotCount, Number.POSITIVE_INFINITY));
  }

  /** `rebuild` in steps of at most `step` values. */
  rebuildSteps(players: readonly RankedValue[], slotCount: number, step: number): RankingSteps {
    return this.metered(this.rebuildPhases(players, slotCount, step));
  }

  /** `update` in steps of at most `step` values. */
  updateSteps(changes: readonly RankChange[], slotCount: number, step: number): RankingSteps {
    return this.metered(this.updatePhases(changes, slotCount, step));
  }

  private *metered(steps: RankingSteps): RankingSteps {
    for (let next = steps.next(); ; next = steps.next()) {
      if (next.done) return;
      this.work.longestStep = Math.max(this.work.longestStep, next.value);
      yield next.value;
    }
  }

  /**
   * Values become dense ranks through one sort, then (rank, name position) pairs are packed
   * into one float each and sorted numerically, which is several times faster than a sort with
   * a comparator. Players the roster does not list (removed meanwhile) are left out.
   */
  private *rebuildPhases(players: readonly RankedValue[], slotCount: number, step: number): RankingSteps {
    const roster = this.roster.frozen();
    const size = Math.max(slotCount, this.values.length);
    const values = new Float64Array(size);
    const ranked = new Uint8Array(size);
    const slots = new Int32Array(players.length);
    const sortedValues = new Float64Array(players.length);
    let count = 0;
    let done = 0;
    for (const player of players) {
      if (frozenPosition(roster, player.slot) >= 0) {
        const value = clean(player.value);
        slots[count] = player.slot;
        sortedValues[count++] = value;
        values[player.slot] = value;
        ranked[player.slot] = 1;
      }
      if (++done >= step) {
        yield done;
        done = 0;
      }
    }
    if (done > 0) {
      yield done;
      done = 0;
    }
    const distinct = yield* sortInSteps(sortedValues.subarray(0, count), step);
    let distinctCount = 0;
    for (let index = 0; index < count; index++) {
      if (index === 0 || distinct[index] !== distinct[distinctCount - 1])
        distinct[distinctCount++] = distinct[index]!;
      if (++done >= step) {
        yield done;
        done = 0;
      }
    }
    const names = Math.max(1, roster.order.length);
    const packed = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      const slot = slots[index]!;
      const dense = indexOf(distinct, distinctCount, values[slot]!);
      packed[index] =
        (this.ascending ? dense : distinctCount - 1 - dense) * names + frozenPosition(roster, slot);
      if (++done >= step) {
        yield done;
        done = 0;
      }
    }
    if (done > 0) {
      yield done;
      done = 0;
    }
    const keys = yield* sortInSteps(packed, step);
    const order = new Int32Array(count);
    const ranks = new Uint32Array(count);
    for (let index = 0; index < count; index++) {
      const key = keys[index]!;
      const rank = Math.floor(key / names);
      order[index] = roster.order[key - rank * names]!;
      ranks[index] = rank + 1;
      if (++done >= step && index + 1 < count) {
        yield done;
        done = 0;
      }
    }
    this.install(order, ranks, values, ranked);
    this.work.rebuilds++;
  }

  /**
   * Drops the changed players from the order, inserts their new versions at binary-searched
   * positions (block copies in between) and recounts the dense ranks from the first position
   * that moved: O(n) simple steps and O(k log n) comparisons instead of a full re-sort.
   */
  private *updatePhases(changes: readonly RankChange[], slotCount: number, step: number): RankingSteps {
    const roster: FrozenRoster = this.roster.frozen();
    const size = Math.max(slotCount, this.values.length);
    const values = new Float64Array(size);
    values.set(this.values);
    const ranked = new Uint8Array(size);
    ranked.set(this.ranked);
    const removing = new Uint8Array(size);
    const inserted: number[] = [];
    for (const { slot, value } of changes) {
      if (ranked[slot]) removing[slot] = 1;
      ranked[slot] = value === null ? 0 : 1;
      if (value === null) continue;
      values[slot] = clean(value);
      inserted.push(slot);
    }
    const compare = (a: number, b: number): number => {
      const first = values[a]!;
      const second = values[b]!;
      // Compared, not subtracted: Infinity - Infinity is NaN.
      if (first !== second) return first < second === this.ascending ? -1 : 1;
      return frozenPosition(roster, a) - frozenPosition(roster, b);
    };
    // The directory asks for steps with at most a step of changes (more: a rebuild in steps).
    inserted.sort(compare);
    if (inserted.length > 0) yield inserted.length;
    let done = 0;
    const previous = this.order;
    const kept = new Int32Array(previous.length);
    let keptCount = 0;
    let from = previous.length;
    for (let position = 0; position < previous.length; position++) {
      const slot = previous[position]!;
      if (!removing[slot]) kept[keptCount++] = slot;
      else if (from === previous.length) from = position;
      if (++done >= step) {
        yield done;
        done = 0;
      }
    }
    const order = new Int32Array(keptCount + inserted.length);
    let copied = 0;
    for (let index = 0; index < inserted.length; index++) {
      const slot = inserted[index]!;
      const at = lowerBound(kept, copied, keptCount, slot, compare);
      // A block copy (native memmove), then the inserted player.
      order.set(kept.subarray(copied, at), copied + index);
      order[at + index] = slot;
      copied = at;
      from = Math.min(from, at + index);
      if (++done >= step) {
        yield done;
        done = 0;
      }
    }
    order.set(kept.subarray(copied, keptCount), copied + inserted.length);
    const ranks = new Uint32Array(order.length);
    ranks.set(this.ranks.subarray(0, Math.min(from, ranks.length)));
    for (let position = from; position < ranks.length; position++) {
      if (position === 0) ranks[position] = 1;
      else {
        const same = values[order[position]!] === values[order[position - 1]!];
        ranks[position] = ranks[position - 1]! + (same ? 0 : 1);
      }
      if (++done >= step && position + 1 < ranks.length) {
        yield done;
        done = 0;
      }
    }
    this.install(order, ranks, values, ranked);
    this.work.updates++;
    this.work.replaced += inserted.length;
  }

  /** Swaps in what the last step finished: readers never see half of a new ranking. */
  private install(
    order: Int32Array<ArrayBuffer>,
    ranks: Uint32Array<ArrayBuffer>,
    values: Float64Array<ArrayBuffer>,
    ranked: Uint8Array<ArrayBuffer>,
  ): void {
    this.order = order;
    this.ranks = ranks;
    this.values = values;
    this.ranked = ranked;
  }
}

/** Runs steps synchronously to their end. */
function runToEnd(steps: RankingSteps): void {
  while (!steps.next().done);
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

/** First position in `sorted[low, high)` whose slot sorts after `slot`. */
function lowerBound(
  sorted: Int32Array,
  low: number,
  high: number,
  slot: number,
  compare: (a: number, b: number) => number,
): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(sorted[middle]!, slot) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
