/**
 * @module A blocklist's entries as a client sends them -> the fewest CIDR blocks covering exactly
 * the same addresses: every entry checked (each problem reported with its path, the first 100
 * listed), duplicates and overlapping or adjacent blocks merged, the result sorted. IPv4 is
 * parsed and merged on plain numbers (a million entries in well under a second); IPv6 on BigInt
 * through the rule model's address parser. `hash:net` cannot hold a /0, so a whole family
 * becomes its two halves.
 */
import { type Family, formatNetwork, hasZoneId, lastAddress, parseNetwork } from './addresses.js';
import type { BlocklistFamily } from './blocklist.js';
import { finishNow, type SteppedWork } from './stepped-work.js';
import type { RuleProblem } from './validate.js';

/** What an IPv6 entry or block costs in stepped items: its BigInt work is some 8 times an IPv4 one's. */
const ipv6Cost = 8;

/** Problems listed at most; the count says how many there were. */
export const maxListedProblems = 100;
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
  private readonly v4: number[] = [];
  private readonly v6: [bigint, bigint][] = [];
  private readonly errors: RuleProblem[] = [];
  private invalid = 0;
  private parsed = 0;
  private ranges4: Float64Array | null = null;
  private ranges6: [bigint, bigint][] = [];
  private blocks: { ipv4: BlockCursor; ipv6: BlockCursor } | null = null;
  private done: EntriesResult | null = null;

  constructor(
    private readonly input: readonly unknown[],
    private readonly family: BlocklistFamily,
    private readonly at: string,
  ) {}

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
        const ranges4 = mergeIpv4(this.v4);
        const ranges6 = mergeIpv6(this.v6);
        this.ranges4 = ranges4;
        this.ranges6 = ranges6;
        this.blocks = {
          ipv4: new BlockCursor(ranges4.length / 2, (i, out) => ipv4Blocks(ranges4, i, out)),
          ipv6: new BlockCursor(ranges6.length, (i, out) => ipv6Blocks(ranges6[i]!, out), ipv6Cost),
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

  /** Parses one entry; returns its cost in items (an IPv6 entry is BigInt work: `ipv6Cost`). */
  private parse(index: number): number {
    const text = this.input[index];
    const problem = (code: string, message: string) => {
      this.invalid += 1;
      if (this.errors.length < maxListedProblems)
        this.errors.push({ path: `${this.at}.${index}`, code, message });
    };
    if (typeof text !== 'string' || text.length === 0 || text.length > maxEntryLength) {
      problem('invalid_address', 'must be an IP address or a CIDR block');
      return 1;
    }
    const packed = packIpv4(text);
    if (packed !== null) {
      if (this.family === 'ipv6') problem('family_mismatch', 'is IPv4 but the list is ipv6');
      else this.v4.push(packed);
      return 1;
    }
    const network = hasZoneId(text) ? null : parseNetwork(text);
    if (network === null || network.family !== 'ipv6') {
      problem('invalid_address', 'must be an IP address or a CIDR block');
    } else if (this.family === 'ipv4') problem('family_mismatch', 'is IPv6 but the list is ipv4');
    else this.v6.push([network.base, lastAddress(network)]);
    return ipv6Cost;
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
        if (packed !== null) return inRanges(ranges4, Math.floor(packed / 64));
        const network = parseNetwork(address);
        return (
          network !== null &&
          network.family === 'ipv6' &&
          ranges6.some(([s, e]) => s <= network.base && network.base <= e)
        );
      },
    };
  }
}

const two32 = 2 ** 32;

/**
 * `a.b.c.d` or `a.b.c.d/n` in canonical decimal (no leading zeros) -> start * 64 + prefix, the
 * host bits cleared; null when it is not such text. The packed form sorts by start in a
 * Float64Array (exact: below 2^38).
 */
export function packIpv4(text: string): number | null {
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
  const size = 2 ** (32 - prefix);
  return (value - (value % size)) * 64 + prefix;
}

/** Sorted, disjoint, non-adjacent [start, end] pairs, flattened. */
function mergeIpv4(packed: number[]): Float64Array {
  const sorted = Float64Array.from(packed).sort();
  const out = new Float64Array(sorted.length * 2);
  let n = 0;
  for (const value of sorted) {
    const prefix = value % 64;
    const start = (value - prefix) / 64;
    const end = start + 2 ** (32 - prefix) - 1;
    if (n > 0 && start <= out[n - 1]! + 1) {
      if (end > out[n - 1]!) out[n - 1] = end;
    } else {
      out[n] = start;
      out[n + 1] = end;
      n += 2;
    }
  }
  return out.subarray(0, n);
}

function inRanges(ranges: Float64Array, address: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (address < ranges[mid * 2]!) high = mid - 1;
    else if (address > ranges[mid * 2 + 1]!) low = mid + 1;
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

/** IPv4 range `index` (of the flattened pairs) as the fewest CIDR blocks, none wider than /1. */
function ipv4Blocks(ranges: Float64Array, index: number, out: string[]): void {
  let start = ranges[index * 2]!;
  const end = ranges[index * 2 + 1]!;
  while (start <= end) {
    let size = 1;
    let prefix = 32;
    while (prefix > 1 && start % (size * 2) === 0 && start + size * 2 - 1 <= end) {
      size *= 2;
      prefix -= 1;
    }
    const address = `${Math.floor(start / 16_777_216)}.${Math.floor(start / 65_536) % 256}.${Math.floor(start / 256) % 256}.${start % 256}`;
    out.push(prefix === 32 ? address : `${address}/${prefix}`);
    start += size;
    if (start >= two32) break;
  }
}

function mergeIpv6(ranges: [bigint, bigint][]): [bigint, bigint][] {
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: [bigint, bigint][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1] + 1n) {
      if (end > last[1]) last[1] = end;
    } else merged.push([start, end]);
  }
  return merged;
}

/** IPv6 range [first, end] as the fewest CIDR blocks, none wider than /1. */
function ipv6Blocks([first, end]: [bigint, bigint], out: string[]): void {
  const top = 1n << 128n;
  let start = first;
  while (start <= end) {
    let size = 1n;
    let prefix = 128;
    while (prefix > 1 && start % (size * 2n) === 0n && start + size * 2n - 1n <= end) {
      size *= 2n;
      prefix -= 1;
    }
    out.push(formatNetwork({ family: 'ipv6', base: start, prefix }));
    start += size;
    if (start >= top) break;
  }
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
  let lastIpv6End = -1n;
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
    const network = hasZoneId(text) ? null : parseNetwork(text);
    if (network === null || network.family !== 'ipv6') {
      return refuse(index, 'invalid_address', 'must be an IP address or a CIDR block');
    }
    if (family === 'ipv4') return refuse(index, 'family_mismatch', 'is IPv6 but the list is ipv4');
    if (network.base <= lastIpv6End) {
      return refuse(index, 'not_merged', 'entries must be merged: ascending, disjoint, IPv4 first');
    }
    lastIpv6End = lastAddress(network);
    entries.ipv6.push(text);
  }
  return { ok: true, entries };
}
