/**
 * @module Every listed player in name order (case-insensitive, ties by UUID), kept up to date
 * incrementally: a change re-places only the players whose name or presence in the list
 * changed. Also answers name substring searches over one joined string.
 */

import type { PlayerSlots } from './player-slots.js';
import { mergeChanges } from './sorted-merge.js';

export interface FrozenRoster {
  /** Slots in name order. */
  readonly order: Int32Array;
  /** Position of each slot in `order`, -1 (or beyond the end) when not listed. */
  readonly positions: Int32Array;
}

/** Position of a slot in a frozen roster, -1 when not listed. */
export function frozenPosition(roster: FrozenRoster, slot: number): number {
  return slot < roster.positions.length ? roster.positions[slot]! : -1;
}

export class Roster {
  /** Listed slots in name order. */
  order = new Int32Array(0);
  /** Position of each slot in `order`, -1 when not listed. */
  private positions = new Int32Array(0);
  /** Sort key (lower-case name) of each listed slot. */
  private readonly keys: (string | undefined)[] = [];
  /** Every key joined by newlines (one indexOf scan finds all matches); built on first search. */
  private haystack: { text: string; starts: Int32Array } | undefined;
  /** The last `frozen()` answer, until the order next moves. */
  private frozenOrder: FrozenRoster | undefined;

  constructor(private readonly slots: PlayerSlots) {}

  get size(): number {
    return this.order.length;
  }

  /** Position of a slot in name order (-1 when not listed); the tie-breaker of rankings. */
  positionOf(slot: number): number {
    return slot < this.positions.length ? this.positions[slot]! : -1;
  }

  /**
   * The name order as of now, unaffected by later changes (`order` is replaced, never written
   * to; `positions` is copied): a ranking prepared in steps ties by it, while the roster may
   * move between two steps. Later moves keep the relative order of every player whose name
   * did not change, and those who changed are in the journal after it, re-placed later.
   */
  frozen(): FrozenRoster {
    // One copy per move of the order, not one per ranking update: 400 KB each at 100,000
    // players, the last typed array every update allocated.
    this.frozenOrder ??= { order: this.order, positions: this.positions.slice() };
    return this.frozenOrder;
  }

  /** Lists exactly `members` (UUID → name), from scratch. */
  rebuild(members: Iterable<[string, string]>): void {
    this.keys.length = 0;
    const listed: number[] = [];
    for (const [uuid, name] of members) {
      const slot = this.slots.slotOf(uuid);
      this.keys[slot] = sortKey(name);
      listed.push(slot);
    }
    listed.sort(this.compare);
    this.replace(Int32Array.from(listed), 0);
  }

  /**
   * Re-places the given players: `name` is their current name, or undefined when they are no
   * longer listed. Players whose key did not change are left alone.
   */
  update(changes: Iterable<[string, string | undefined]>): void {
    const removed = new Set<number>();
    const inserted: number[] = [];
    for (const [uuid, name] of changes) {
      const slot = this.slots.slotOf(uuid);
      const key = name === undefined ? undefined : sortKey(name);
      const previous = this.keys[slot];
      if (key === previous) continue;
      if (previous !== undefined) removed.add(slot);
      this.keys[slot] = key;
      if (key !== undefined) inserted.push(slot);
    }
    if (removed.size === 0 && inserted.length === 0) return;
    const merged = mergeChanges(this.order, (slot) => removed.has(slot), inserted, this.compare);
    this.replace(merged.order, merged.from);
  }

  /** Joins the names for searching now (at start), so the first search does not. */
  prepareSearch(): void {
    this.haystack ??= this.joinKeys();
  }

  /** Slots whose name contains `needle` (lower case, no newline), in name order. */
  search(needle: string): number[] {
    this.haystack ??= this.joinKeys();
    const { text, starts } = this.haystack;
    const found: number[] = [];
    let from = 0;
    let position = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at === -1) return found;
      // Names are in haystack order, so the owner of `at` is at or after the last match.
      while (position + 1 < starts.length && starts[position + 1]! <= at) position++;
      found.push(this.order[position]!);
      from = starts[position + 1] ?? text.length;
    }
  }

  private readonly compare = (a: number, b: number): number =>
    compareText(this.keys[a]!, this.keys[b]!) || compareText(this.slots.uuids[a]!, this.slots.uuids[b]!);

  private replace(order: Int32Array<ArrayBuffer>, from: number) {
    if (this.positions.length < this.slots.size) {
      const grown = new Int32Array(Math.max(this.slots.size, this.positions.length * 2)).fill(-1);
      grown.set(this.positions);
      this.positions = grown;
    }
    for (let position = from; position < this.order.length; position++) {
      const slot = this.order[position]!;
      if (this.positions[slot] === position) this.positions[slot] = -1;
    }
    for (let position = from; position < order.length; position++)
      this.positions[order[position]!] = position;
    this.order = order;
    this.haystack = undefined;
    this.frozenOrder = undefined;
  }

  private joinKeys() {
    const starts = new Int32Array(this.order.length);
    const parts: string[] = [];
    let offset = 0;
    this.order.forEach((slot, position) => {
      const key = this.keys[slot]!;
      starts[position] = offset;
      offset += key.length + 1;
      parts.push(key);
    });
    return { text: parts.join('\n'), starts };
  }
}

/** Names compare case-insensitively; a newline would break the joined search string. */
function sortKey(name: string): string {
  return name.toLowerCase().replaceAll('\n', ' ');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
