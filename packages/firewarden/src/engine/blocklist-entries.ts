/**
 * @module A blocklist's entries as a client sends them -> the fewest CIDR blocks covering exactly
 * the same addresses: every entry checked (each problem reported with its path, the first 100
 * listed), duplicates and overlapping or adjacent blocks merged, the result sorted. IPv4 is
 * parsed and merged on plain numbers, IPv6 on four 32-bit words in a typed array
 * (`ipv6-words.ts`): no BigInt per entry. An IPv4 block that is one entry as sent, in its
 * canonical form, is that entry's own string (most of a feed: no text is built for it).
 * `hash:net` cannot hold a /0, so a whole family becomes its two halves.
 */
import type { Family } from './addresses.js';
import type { BlocklistFamily } from './blocklist.js';
import {
  appendIpv6Blocks,
  compareIpv6,
  incrementIpv6,
  ipv6Words,
  readIpv6Network,
  setHostBits,
} from './ipv6-words.js';
import { finishNow, type SteppedWork } from './stepped-work.js';
import type { RuleProblem } from './validate.js';

/** What an IPv6 entry or block costs in stepped items: some 4 times an IPv4 one (measured). */
const ipv6Cost = 4;

/** An IPv6 range in a typed array: its first address, then its last (four words each). */
const rangeWords = 2 * ipv6Words;

/** In `ipv4Details`: the entry's text is its block's canonical form. */
const canonicalText = 64;

/** Problems listed at most; the count says how many there were. */
const maxListedProblems = 100;
const maxEntryLength = 64;

export interface MergedEntries {
  entries: Record<Family, string[]>;
  /** Entries received, and blocks held after merging. */
  received: number;
  stored: number;
  /** Whether an address (IPv4 or IPv6 text) is in one of the blocks. */
  holds(address: string): boolean;
}

export type EntriesResult =
  | ({ ok: true } & MergedEntries)
  | { ok: false; errors: RuleProblem[]; invalid: number };

export function mergeBlocklistEntries(
  input: readonly unknown[],
  family: BlocklistFamily = 'both',
  at = 'entries',
): EntriesResult {
  return finishNow(new BlocklistMerge(input, family, at));
}

/**
 * The merge as stepped work (`stepped-work.ts`), so the server parses and formats a large list a
 * slice per turn of its event loop and answers other requests in between; an item is one entry
 * parsed or one block formatted. Only the sort of the parsed entries runs in one go (some 10 ms per
 * 100,000 entries).
 */
export class BlocklistMerge implements SteppedWork<EntriesResult> {
  /** Each IPv4 entry's first address and input index, `v4Count` of them; per index its prefix | `canonicalText`. */
  private readonly v4Starts: Uint32Array;
  private readonly v4Indexes: Uint32Array;
  private v4Count = 0;
  private readonly ipv4Details: Uint8Array;
  /** Each IPv6 entry as a range (`rangeWords` a range), `v6Count` of them. */
  private v6 = new Uint32Array(rangeWords * 1024);
  private v6Count = 0;
  private readonly errors: RuleProblem[] = [];
  private invalid = 0;
  private parsed = 0;
  private ranges4: Ipv4Ranges | null = null;
  private ranges6: Uint32Array = new Uint32Array(0);
  private blocks: { ipv4: BlockCursor; ipv6: BlockCursor } | null = null;
  private done: EntriesResult | null = null;

  constructor(
    private readonly input: readonly unknown[],
    private readonly family: BlocklistFamily,
    private readonly at: string,
  ) {
    this.v4Starts = new Uint32Array(input.length);
    this.v4Indexes = new Uint32Array(input.length);
    this.ipv4Details = new Uint8Array(input.length);
  }

  advance(items: number): boolean {
    let budget = items;
    while (this.done === null && budget > 0) {
      if (this.parsed < this.input.length) {
        while (this.parsed < this.input.length && budget > 0) {
          budget -= this.parse(this.parsed);
          this.parsed += 1;
        }
      } else if (this.invalid > 0) {
        this.done = { ok: false, errors: this.errors, invalid: this.invalid };
      } else if (this.blocks === null) {
        const ranges4 = mergeIpv4(this.v4Starts, this.v4Indexes, this.v4Count, this.ipv4Details);
        const ranges6 = mergeIpv6(this.v6, this.v6Count);
        this.ranges4 = ranges4;
        this.ranges6 = ranges6;
        this.blocks = {
          ipv4: new BlockCursor(ranges4.length / ipv4RangeStride, (i, out) =>
            ipv4Blocks(ranges4, i, this.input as readonly string[], this.ipv4Details, out),
          ),
          ipv6: new BlockCursor(
            ranges6.length / rangeWords,
            (i, out) => appendIpv6Blocks(ranges6, i * rangeWords, i * rangeWords + ipv6Words, out),
            ipv6Cost,
          ),
        };
      } else if (!this.blocks.ipv4.finished) {
        budget -= this.blocks.ipv4.advance(budget);
      } else if (!this.blocks.ipv6.finished) {
        budget -= this.blocks.ipv6.advance(budget);
      } else {
        this.done = this.merged();
      }
    }
    return this.done !== null;
  }

  result(): EntriesResult {
    if (this.done === null) throw new Error('the merge is not finished');
    return this.done;
  }

  /** Parses one entry; returns its cost in items (an IPv6 entry: `ipv6Cost`). */
  private parse(index: number): number {
    const text = this.input[index];
    if (typeof text !== 'string' || text.length === 0 || text.length > maxEntryLength) {
      this.problem(index, 'invalid_address', 'must be an IP address or a CIDR block');
      return 1;
    }
    const read = readIpv4(text);
    if (read !== null) {
      if (this.family === 'ipv6') this.problem(index, 'family_mismatch', 'is IPv4 but the list is ipv6');
      else {
        const packed = maskIpv4(read);
        const prefix = packed % 64;
        this.v4Starts[this.v4Count] = (packed - prefix) / 64;
        this.v4Indexes[this.v4Count] = index;
        this.v4Count += 1;
        // Canonical: no host bits, a prefix a set holds, and no "/32" (a host is written bare).
        const canonical =
          packed === read && prefix >= 1 && !(prefix === 32 && text.charCodeAt(text.length - 3) === 47);
        this.ipv4Details[index] = prefix | (canonical ? canonicalText : 0);
      }
      return 1;
    }
    if (this.v6.length < (this.v6Count + 1) * rangeWords) {
      const grown = new Uint32Array(this.v6.length * 2);
      grown.set(this.v6);
      this.v6 = grown;
    }
    const at = this.v6Count * rangeWords;
    const prefix = readIpv6Network(text, this.v6, at);
    if (prefix === -1) this.problem(index, 'invalid_address', 'must be an IP address or a CIDR block');
    else if (this.family === 'ipv4') this.problem(index, 'family_mismatch', 'is IPv6 but the list is ipv4');
    else {
      this.v6.copyWithin(at + ipv6Words, at, at + ipv6Words);
      setHostBits(this.v6, at + ipv6Words, prefix);
      this.v6Count += 1;
    }
    return ipv6Cost;
  }

  private problem(index: number, code: string, message: string): void {
    this.invalid += 1;
    if (this.errors.length < maxListedProblems)
      this.errors.push({ path: `${this.at}.${index}`, code, message });
  }

  private merged(): EntriesResult {
    const ranges4 = this.ranges4!;
    const ranges6 = this.ranges6;
    const entries = { ipv4: this.blocks!.ipv4.blocks, ipv6: this.blocks!.ipv6.blocks };
    return {
      ok: true,
      entries,
      received: this.input.length,
      stored: entries.ipv4.length + entries.ipv6.length,
      holds: (address) => {
        const packed = packIpv4(address);
        if (packed !== null) return inIpv4Ranges(ranges4, Math.floor(packed / 64));
        return readIpv6Network(address, scratch, 0) !== -1 && inIpv6Ranges(ranges6, scratch);
      },
    };
  }
}

const two32 = 2 ** 32;

/**
 * `a.b.c.d` or `a.b.c.d/n` in canonical decimal (no leading zeros) -> start * 64 + prefix, the
 * host bits cleared; null when it is not such text.
 */
function packIpv4(text: string): number | null {
  const read = readIpv4(text);
  return read === null ? null : maskIpv4(read);
}

/** `maskIpv4(readIpv4(text))` is `packIpv4(text)`: the address as written, then its network. */
function maskIpv4(read: number): number {
  const prefix = read % 64;
  const address = (read - prefix) / 64;
  const size = 2 ** (32 - prefix);
  return (address - (address % size)) * 64 + prefix;
}

/** `a.b.c.d` or `a.b.c.d/n` in canonical decimal -> address * 64 + prefix, host bits kept; or null. */
function readIpv4(text: string): number | null {
  let value = 0;
  let octets = 0;
  let i = 0;
  for (; octets < 4; octets += 1) {
    const start = i;
    let octet = 0;
    while (i < text.length && i - start < 4) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      octet = octet * 10 + (c - 48);
      i += 1;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && text.charCodeAt(start) === 48))
      return null;
    value = value * 256 + octet;
    if (octets < 3) {
      if (text.charCodeAt(i) !== 46) return null;
      i += 1;
    }
  }
  let prefix = 32;
  if (i < text.length) {
    if (text.charCodeAt(i) !== 47) return null;
    const digits = text.slice(i + 1);
    if (digits.length === 0 || digits.length > 2) return null;
    prefix = 0;
    for (let k = 0; k < digits.length; k += 1) {
      const c = digits.charCodeAt(k);
      if (c < 48 || c > 57) return null;
      prefix = prefix * 10 + (c - 48);
    }
    if (prefix > 32) return null;
  }
  return value * 64 + prefix;
}

/**
 * Sorted, disjoint, non-adjacent IPv4 ranges, flattened as [start, end, source]: source is the
 * input index of the one entry the range is, or -1 when entries were merged into it.
 */
type Ipv4Ranges = Float64Array;
const ipv4RangeStride = 3;

/**
 * The first `count` entries (first address, input index) merged; `details` gives each entry's
 * prefix. Sorts `starts` and `indexes` in place.
 */
function mergeIpv4(
  starts: Uint32Array,
  indexes: Uint32Array,
  count: number,
  details: Uint8Array,
): Ipv4Ranges {
  sortByStart(starts, indexes, count);
  const out = new Float64Array(count * ipv4RangeStride);
  let n = 0;
  for (let i = 0; i < count; i += 1) {
    const start = starts[i]!;
    const index = indexes[i]!;
    const end = start + 2 ** (32 - (details[index]! & 63)) - 1;
    const lastEnd = n - 2;
    if (n > 0 && start <= out[lastEnd]! + 1) {
      // Inside the range: it stays what it was; past it or touching it: the range grows.
      if (end > out[lastEnd]!) {
        out[lastEnd] = end;
        out[n - 1] = -1;
      }
    } else {
      out[n] = start;
      out[n + 1] = end;
      out[n + 2] = index;
      n += ipv4RangeStride;
    }
  }
  return out.subarray(0, n);
}

/**
 * Sorts the first `count` starts, and their indexes with them, in place: a radix sort on two
 * 16-bit halves, least significant first, so equal starts keep the input's order and no
 * comparison runs per pair (a third of `Float64Array.prototype.sort`'s time here).
 */
function sortByStart(starts: Uint32Array, indexes: Uint32Array, count: number): void {
  let keys: Uint32Array = starts.subarray(0, count);
  let ids: Uint32Array = indexes.subarray(0, count);
  let keysOut: Uint32Array = new Uint32Array(count);
  let idsOut: Uint32Array = new Uint32Array(count);
  const positions = new Uint32Array(65_537);
  for (const shift of [0, 16]) {
    positions.fill(0);
    for (let i = 0; i < count; i += 1) positions[((keys[i]! >>> shift) & 0xffff) + 1] += 1;
    for (let digit = 1; digit <= 65_536; digit += 1) positions[digit] += positions[digit - 1]!;
    for (let i = 0; i < count; i += 1) {
      const at = positions[(keys[i]! >>> shift) & 0xffff]!++;
      keysOut[at] = keys[i]!;
      idsOut[at] = ids[i]!;
    }
    [keys, keysOut] = [keysOut, keys];
    [ids, idsOut] = [idsOut, ids];
  }
  // Two passes: the sorted order is back in the arrays passed.
}

function inIpv4Ranges(ranges: Ipv4Ranges, address: number): boolean {
  let low = 0;
  let high = ranges.length / ipv4RangeStride - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (address < ranges[mid * ipv4RangeStride]!) high = mid - 1;
    else if (address > ranges[mid * ipv4RangeStride + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

/** Ranges turned into blocks a few ranges at a time: `formatRange(i, out)` appends range i's blocks. */
class BlockCursor {
  readonly blocks: string[] = [];
  private range = 0;

  constructor(
    private readonly ranges: number,
    private readonly formatRange: (index: number, out: string[]) => void,
    /** Items each block costs. */
    private readonly cost = 1,
  ) {}

  get finished(): boolean {
    return this.range >= this.ranges;
  }

  /** Formats ranges until about `budget` items of work are done; returns how many (at least 1). */
  advance(budget: number): number {
    const before = this.blocks.length;
    for (; this.range < this.ranges && (this.blocks.length - before) * this.cost < budget; this.range += 1) {
      this.formatRange(this.range, this.blocks);
    }
    return Math.max(1, (this.blocks.length - before) * this.cost);
  }
}

/** Each octet's decimal text: no number is converted to text per block. */
const octetText = Array.from({ length: 256 }, (_, octet) => String(octet));

/**
 * IPv4 range `index` as the fewest CIDR blocks, none wider than /1: the entry's own text when
 * the range is one entry written canonically.
 */
function ipv4Blocks(
  ranges: Ipv4Ranges,
  index: number,
  input: readonly string[],
  details: Uint8Array,
  out: string[],
): void {
  const source = ranges[index * ipv4RangeStride + 2]!;
  if (source >= 0 && (details[source]! & canonicalText) !== 0) {
    out.push(input[source]!);
    return;
  }
  let start = ranges[index * ipv4RangeStride]!;
  const end = ranges[index * ipv4RangeStride + 1]!;
  while (start <= end) {
    let size = 1;
    let prefix = 32;
    while (prefix > 1 && start % (size * 2) === 0 && start + size * 2 - 1 <= end) {
      size *= 2;
      prefix -= 1;
    }
    const address = `${octetText[Math.floor(start / 16_777_216)]}.${octetText[Math.floor(start / 65_536) % 256]}.${octetText[Math.floor(start / 256) % 256]}.${octetText[start % 256]}`;
    out.push(prefix === 32 ? address : `${address}/${prefix}`);
    start += size;
    if (start >= two32) break;
  }
}

/** Scratch words for one IPv6 address. */
const scratch = new Uint32Array(ipv6Words);

/** The first `count` ranges of `entries`, sorted and merged where they overlap or touch. */
function mergeIpv6(entries: Uint32Array, count: number): Uint32Array {
  const out = new Uint32Array(count * rangeWords);
  let n = 0;
  for (const at of sortedByStart(entries, count)) {
    const lastEnd = n - ipv6Words;
    if (n > 0 && touchesEnd(entries, at, out, lastEnd)) {
      if (compareIpv6(entries, at + ipv6Words, out, lastEnd) > 0)
        copyIpv6(entries, at + ipv6Words, out, lastEnd);
    } else {
      copyIpv6(entries, at, out, n);
      copyIpv6(entries, at + ipv6Words, out, n + ipv6Words);
      n += rangeWords;
    }
  }
  return out.subarray(0, n);
}

/**
 * The offsets of the first `count` ranges of `entries`, ordered by their first address: a radix
 * sort on its 16 bytes, least significant first (a byte all of them share is skipped), so there
 * is no comparison callback per pair.
 */
function sortedByStart(entries: Uint32Array, count: number): Uint32Array {
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) order[i] = i * rangeWords;
  let next = new Uint32Array(count);
  const positions = new Uint32Array(257);
  for (let byte = 4 * ipv6Words - 1; byte >= 0; byte -= 1) {
    const word = byte >> 2;
    const shift = 8 * (3 - (byte & 3));
    positions.fill(0);
    for (let i = 0; i < count; i += 1) positions[((entries[order[i]! + word]! >>> shift) & 255) + 1] += 1;
    if (positions.includes(count)) continue;
    for (let digit = 1; digit <= 256; digit += 1) positions[digit] += positions[digit - 1]!;
    for (let i = 0; i < count; i += 1) {
      const at = order[i]!;
      next[positions[(entries[at + word]! >>> shift) & 255]!++] = at;
    }
    [order, next] = [next, order];
  }
  return order;
}

function copyIpv6(from: Uint32Array, at: number, to: Uint32Array, into: number): void {
  for (let w = 0; w < ipv6Words; w += 1) to[into + w] = from[at + w]!;
}

/** Whether the address at `start` is at most one past the one at `end`: it overlaps or touches. */
function touchesEnd(entries: Uint32Array, start: number, ranges: Uint32Array, end: number): boolean {
  if (compareIpv6(entries, start, ranges, end) <= 0) return true;
  copyIpv6(ranges, end, scratch, 0);
  return incrementIpv6(scratch, 0) && compareIpv6(entries, start, scratch, 0) === 0;
}

/** Whether `address` is in one of the sorted, disjoint `ranges`. */
function inIpv6Ranges(ranges: Uint32Array, address: Uint32Array): boolean {
  let low = 0;
  let high = ranges.length / rangeWords - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (compareIpv6(address, 0, ranges, mid * rangeWords) < 0) high = mid - 1;
    else if (compareIpv6(address, 0, ranges, mid * rangeWords + ipv6Words) > 0) low = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Checks entries that should already be merged (as `mergeBlocklistEntries` gives them, IPv4
 * first): each an address or block of the list's family, in ascending order, none touching the
 * one before. The agent runs this instead of merging again: the same guarantees for the kernel
 * (no line but an address, no duplicate) at a fraction of the cost.
 */
export function checkMergedEntries(
  input: readonly unknown[],
  family: BlocklistFamily = 'both',
  at = 'entries',
): { ok: true; entries: Record<Family, string[]> } | { ok: false; errors: RuleProblem[] } {
  const entries: Record<Family, string[]> = { ipv4: [], ipv6: [] };
  let lastIpv4End = -1;
  // The last IPv6 block's last address (words 0-3), and the entry read now (words 4-7).
  const ipv6 = new Uint32Array(rangeWords);
  const refuse = (index: number, code: string, message: string) => ({
    ok: false as const,
    errors: [{ path: `${at}.${index}`, code, message }],
  });
  for (let index = 0; index < input.length; index += 1) {
    const text = input[index];
    if (typeof text !== 'string' || text.length > maxEntryLength) {
      return refuse(index, 'invalid_address', 'must be an IP address or a CIDR block');
    }
    const packed = packIpv4(text);
    if (packed !== null) {
      const prefix = packed % 64;
      const start = (packed - prefix) / 64;
      if (family === 'ipv6') return refuse(index, 'family_mismatch', 'is IPv4 but the list is ipv6');
      if (entries.ipv6.length > 0 || start <= lastIpv4End) {
        return refuse(index, 'not_merged', 'entries must be merged: ascending, disjoint, IPv4 first');
      }
      lastIpv4End = start + 2 ** (32 - prefix) - 1;
      entries.ipv4.push(text);
      continue;
    }
    const prefix = readIpv6Network(text, ipv6, ipv6Words);
    if (prefix === -1) return refuse(index, 'invalid_address', 'must be an IP address or a CIDR block');
    if (family === 'ipv4') return refuse(index, 'family_mismatch', 'is IPv6 but the list is ipv4');
    if (entries.ipv6.length > 0 && compareIpv6(ipv6, ipv6Words, ipv6, 0) <= 0) {
      return refuse(index, 'not_merged', 'entries must be merged: ascending, disjoint, IPv4 first');
    }
    ipv6.copyWithin(0, ipv6Words, rangeWords);
    setHostBits(ipv6, 0, prefix);
    entries.ipv6.push(text);
  }
  return { ok: true, entries };
}
