/**
 * @module One leaderboard over every indexed player: slots sorted by value (then by name), with
 * dense ranks. Built from scratch with numeric sorts, then kept up to date by re-placing only
 * the players that changed. Both can run in bounded steps (`rebuildSteps`, `updateSteps`): each
 * step handles at most `step` values, and the new arrays replace the old ones only after the last
 * step, so between two steps the ranking still answers from its previous state. The arrays an
 * install replaces are written by the next rebuild or update instead of new ones (see `spare`).
 */
import { type FrozenRoster, frozenPosition, type Roster } from './roster.js';
import { runToEnd } from './run-steps.js';
import { sortInSteps } from './stepped-sort.js';

/**
 * The players to rank: the slot and the value (NaN counts as 0) of each, as two parallel typed
 * arrays rather than an object per player: 100,000 objects per ranking, alive through the
 * stepped rebuild, made the young-generation collections after a start copy megabytes.
 */
export interface RankedValues {
  readonly slots: Int32Array;
  readonly values: Float64Array;
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
type RankingSteps = Generator<number, void>;

/** A ranking's four arrays at full capacity: it answers from views of their first entries. */
interface RankingArrays {
  order: Int32Array<ArrayBuffer>;
  ranks: Uint32Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
  ranked: Uint8Array<ArrayBuffer>;
}

type TypedArray =
  | Int32Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Float64Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>;

/** What a rebuild or update without a spare starts from: every array grows, so is allocated. */
const noArrays: RankingArrays = {
  order: new Int32Array(0),
  ranks: new Uint32Array(0),
  values: new Float64Array(0),
  ranked: new Uint8Array(0),
};

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
   * The arrays the last install replaced (null before the first), which the next rebuild or
   * update writes into: fresh ones, 2.2 MB per update at 100,000 players, drove a full
   * collection every ~30 s on a live server.
   */
  private spare: RankingArrays | null = null;
  /** Scratch of updates: the slots kept, at capacity. */
  private kept = new Int32Array(0);
  /** Scratch of updates: marks the slots being re-placed; all zero between two updates. */
  private removing = new Uint8Array(0);
  /**
   * Rebuilds and updates started and not finished. Only one that starts alone claims the spare
   * and the scratch; one overlapping it (a stepped one in flight while the directory's
   * synchronous path runs) allocates its own. So the spare, claimed only when none is in flight,
   * is never written while another reads it across its steps.
   */
  private running = 0;
  /**
   * Rebuilds and updates so far, the most values handled in one step of the stepped ones, and
   * the bytes of typed arrays allocated (the stepped sort's merge buffer aside): what tests pin
   * (a change must not rebuild; no step handles more than its bound; warm updates allocate none).
   */
  readonly work = { rebuilds: 0, updates: 0, replaced: 0, longestStep: 0, allocatedBytes: 0 };

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
  rebuild(players: RankedValues, slotCount: number): void {
    runToEnd(this.rebuildPhases(players, slotCount, Number.POSITIVE_INFINITY));
  }

  /** Re-places the given players in one go. */
  update(changes: readonly RankChange[], slotCount: number): void {
    runToEnd(this.updatePhases(changes, slotCount, Number.POSITIVE_INFINITY));
  }

  /** `rebuild` in steps of at most `step` values. */
  rebuildSteps(players: RankedValues, slotCount: number, step: number): RankingSteps {
    return this.metered(this.rebuildPhases(players, slotCount, step));
  }

  /** `update` in steps of at most `step` values. */
  updateSteps(changes: readonly RankChange[], slotCount: number, step: number): RankingSteps {
    return this.metered(this.updatePhases(changes, slotCount, step));
  }

  private *metered(steps: RankingSteps): RankingSteps {
    try {
      for (let next = steps.next(); ; next = steps.next()) {
        if (next.done) return;
        this.work.longestStep = Math.max(this.work.longestStep, next.value);
        yield next.value;
      }
    } finally {
      // Stopped early: the phases still release the spare and the scratch they claimed.
      steps.return();
    }
  }

  /**
   * Values become dense ranks through one sort, then (rank, name position) pairs are packed
   * into one float each and sorted numerically, which is several times faster than a sort with
   * a comparator. Players the roster does not list (removed meanwhile) are left out.
   */
  private *rebuildPhases(players: RankedValues, slotCount: number, step: number): RankingSteps {
    const arrays = this.claim() ?? noArrays;
    try {
      yield* this.rebuildInto(arrays, players, slotCount, step);
    } finally {
      this.running--;
    }
  }

  private *rebuildInto(
    arrays: RankingArrays,
    players: RankedValues,
    slotCount: number,
    step: number,
  ): RankingSteps {
    const roster = this.roster.frozen();
    const size = Math.max(slotCount, this.values.length);
    // Zeroed, so that `ranked` marks exactly the ranked slots: reused arrays hold an older ranking.
    const values = this.grow(arrays.values, size, Float64Array).subarray(0, size).fill(0);
    const ranked = this.grow(arrays.ranked, size, Uint8Array).subarray(0, size).fill(0);
    const slots = this.allocate(Int32Array, players.slots.length);
    const sortedValues = this.allocate(Float64Array, players.slots.length);
    let count = 0;
    let done = 0;
    for (let index = 0; index < players.slots.length; index++) {
      const slot = players.slots[index]!;
      if (frozenPosition(roster, slot) >= 0) {
        const value = clean(players.values[index]!);
        slots[count] = slot;
        sortedValues[count++] = value;
        values[slot] = value;
        ranked[slot] = 1;
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
    const packed = this.allocate(Float64Array, count);
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
    const order = this.grow(arrays.order, count, Int32Array).subarray(0, count);
    const ranks = this.grow(arrays.ranks, count, Uint32Array).subarray(0, count);
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
    const spare = this.claim();
    const size = Math.max(slotCount, this.values.length);
    if (spare) this.removing = this.grow(this.removing, size, Uint8Array);
    const removing = spare ? this.removing : this.allocate(Uint8Array, size);
    try {
      yield* this.updateInto(spare, removing, changes, size, step);
    } finally {
      // Only the marks set are cleared: the scratch is as large as the slots.
      for (const { slot } of changes) removing[slot] = 0;
      this.running--;
    }
  }

  private *updateInto(
    spare: RankingArrays | null,
    removing: Uint8Array,
    changes: readonly RankChange[],
    size: number,
    step: number,
  ): RankingSteps {
    const arrays = spare ?? noArrays;
    const roster: FrozenRoster = this.roster.frozen();
    // The state this update starts from, taken now: an install by an overlapping rebuild or
    // update must not mix into it.
    const previous = this.order;
    const previousRanks = this.ranks;
    const values = this.grow(arrays.values, size, Float64Array).subarray(0, size);
    values.set(this.values);
    // Slots new to this ranking: zero, as in fresh arrays (reused ones hold older entries).
    values.fill(0, this.values.length);
    const ranked = this.grow(arrays.ranked, size, Uint8Array).subarray(0, size);
    ranked.set(this.ranked);
    ranked.fill(0, this.ranked.length);
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
    if (spare) this.kept = this.grow(this.kept, previous.length, Int32Array);
    const kept = spare ? this.kept : this.allocate(Int32Array, previous.length);
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
    const order = this.grow(arrays.order, keptCount + inserted.length, Int32Array).subarray(
      0,
      keptCount + inserted.length,
    );
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
    const ranks = this.grow(arrays.ranks, order.length, Uint32Array).subarray(0, order.length);
    ranks.set(previousRanks.subarray(0, Math.min(from, ranks.length)));
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

  /**
   * Swaps in what the last step finished: readers never see half of a new ranking. Readers use
   * the arrays within one turn, so the replaced ones become the spare (see `running`).
   */
  private install(
    order: Int32Array<ArrayBuffer>,
    ranks: Uint32Array<ArrayBuffer>,
    values: Float64Array<ArrayBuffer>,
    ranked: Uint8Array<ArrayBuffer>,
  ): void {
    this.spare = {
      order: new Int32Array(this.order.buffer),
      ranks: new Uint32Array(this.ranks.buffer),
      values: new Float64Array(this.values.buffer),
      ranked: new Uint8Array(this.ranked.buffer),
    };
    this.order = order;
    this.ranks = ranks;
    this.values = values;
    this.ranked = ranked;
  }

  /**
   * Starts a rebuild or an update (`running` goes down when it ends): the spare (no arrays when
   * there is none yet) if it runs alone, null when another is in flight.
   */
  private claim(): RankingArrays | null {
    return this.running++ > 0 ? null : (this.spare ?? noArrays);
  }

  /** `array` if it holds `length` entries, else a new one with room to grow (rarely again). */
  private grow<T extends TypedArray>(array: T, length: number, Kind: new (length: number) => T): T {
    return array.length >= length ? array : this.allocate(Kind, length + (length >> 3) + 16);
  }

  /** A new typed array, counted in `work.allocatedBytes`. */
  private allocate<T extends TypedArray>(Kind: new (length: number) => T, length: number): T {
    const array = new Kind(length);
    this.work.allocatedBytes += array.byteLength;
    return array;
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
