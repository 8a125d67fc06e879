/**
 * @module IPv6 addresses as four unsigned 32-bit words, most significant first, for work over many
 * of them (a blocklist's merge): read, compared, stepped and written without a BigInt per address.
 * A block is written into a `Uint32Array` at an offset, so a list of them is one typed array.
 */
import { isIPv6 } from 'node:net';
import { formatIpv6Groups, hasZoneId, maxAddressLength, parsePrefix } from './addresses.js';

/** Words of one address: four, most significant first. */
export const ipv6Words = 4;

/** Groups read so far by `readIpv6`, before the `::` gap is filled (up to 8). */
const parts = new Array<number>(8).fill(0);

/**
 * Reads IPv6 text with an optional `/prefix` (as `parseNetwork` accepts it) into `out[at..at+3]`:
 * its network address, host bits cleared. Returns the prefix, or -1 when the text is not that.
 */
export function readIpv6Network(text: string, out: Uint32Array, at: number): number {
  if (text.length === 0 || text.length > maxAddressLength || hasZoneId(text)) return -1;
  const slash = text.indexOf('/');
  const host = slash === -1 ? text : text.slice(0, slash);
  if (!isIPv6(host)) return -1;
  const prefix = slash === -1 ? 128 : parsePrefix(text.slice(slash + 1), 128);
  if (prefix === null) return -1;
  readIpv6(host, out, at);
  clearHostBits(out, at, prefix);
  return prefix;
}

/** Writes the address of `host` (text `isIPv6` accepted, no prefix) into `out[at..at+3]`. */
function readIpv6(host: string, out: Uint32Array, at: number): void {
  let count = 0;
  let gap = -1;
  let value = 0;
  let digits = 0;
  for (let i = 0; i < host.length; i += 1) {
    const c = host.charCodeAt(i);
    if (c === 58 /* : */) {
      if (digits > 0) parts[count++] = value;
      value = 0;
      digits = 0;
      if (host.charCodeAt(i + 1) === 58) {
        gap = count;
        i += 1;
      }
    } else if (c === 46 /* . */) {
      // An embedded IPv4 tail (::ffff:192.0.2.1): its first octet was read as hex digits.
      const v4 = dottedQuad(host, i - digits);
      parts[count++] = v4 >>> 16;
      parts[count++] = v4 & 0xffff;
      digits = 0;
      break;
    } else {
      value = value * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
      digits += 1;
    }
  }
  if (digits > 0) parts[count++] = value;
  const zeros = gap === -1 ? 0 : 8 - count;
  for (let group = 0; group < 8; group += 2) {
    out[at + group / 2] = groupAt(group, gap, zeros) * 65_536 + groupAt(group + 1, gap, zeros);
  }
}

/** Group `index` of the full address, from `parts` with `zeros` groups at `gap`. */
function groupAt(index: number, gap: number, zeros: number): number {
  if (gap === -1 || index < gap) return parts[index]!;
  if (index < gap + zeros) return 0;
  return parts[index - zeros]!;
}

/** The four decimal octets from `start` to the end of `text`, as one number. */
function dottedQuad(text: string, start: number): number {
  let value = 0;
  let octet = 0;
  for (let i = start; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (c - 48);
  }
  return value * 256 + octet;
}

/** The mask of the top `bits` bits of a word (0-32). */
function topMask(bits: number): number {
  return bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

/** Clears the host bits of the address at `at` (its first `prefix` bits stay). */
function clearHostBits(words: Uint32Array, at: number, prefix: number): void {
  for (let w = 0; w < ipv6Words; w += 1) words[at + w] = (words[at + w]! & topMask(prefix - 32 * w)) >>> 0;
}

/** Sets the host bits of the address at `at`: the block's last address. */
export function setHostBits(words: Uint32Array, at: number, prefix: number): void {
  for (let w = 0; w < ipv6Words; w += 1) words[at + w] = (words[at + w]! | ~topMask(prefix - 32 * w)) >>> 0;
}

/** Negative, zero or positive as the address at `a` in `x` is below, equal to or above the one at `b` in `y`. */
export function compareIpv6(x: Uint32Array, a: number, y: Uint32Array, b: number): number {
  for (let w = 0; w < ipv6Words; w += 1) {
    const left = x[a + w]!;
    const right = y[b + w]!;
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

/** Adds one to the address at `at`; false when it was the last address (it wraps to `::`). */
export function incrementIpv6(words: Uint32Array, at: number): boolean {
  for (let w = ipv6Words - 1; w >= 0; w -= 1) {
    const next = (words[at + w]! + 1) >>> 0;
    words[at + w] = next;
    if (next !== 0) return true;
  }
  return false;
}

/** Number of zero bits at the low end of the address at `at` (128 for `::`). */
function trailingZeros(words: Uint32Array, at: number): number {
  for (let w = ipv6Words - 1; w >= 0; w -= 1) {
    const word = words[at + w]!;
    if (word !== 0) return 32 * (ipv6Words - 1 - w) + 31 - Math.clz32(word & -word);
  }
  return 128;
}

/** Scratch for `appendIpv6Blocks`: the next start, and the span left. */
const cursor = new Uint32Array(ipv6Words);
const span = new Uint32Array(ipv6Words);

/**
 * Appends the fewest CIDR blocks covering the range from the address at `start` to the one at
 * `end` (inclusive, in `ranges`), none wider than /1 (`hash:net` holds no /0).
 */
export function appendIpv6Blocks(ranges: Uint32Array, start: number, end: number, out: string[]): void {
  for (let w = 0; w < ipv6Words; w += 1) cursor[w] = ranges[start + w]!;
  for (;;) {
    // The block's host bits: as many as the start's alignment and the span left allow.
    let borrow = 0;
    for (let w = ipv6Words - 1; w >= 0; w -= 1) {
      const difference = ranges[end + w]! - cursor[w]! - borrow;
      borrow = difference < 0 ? 1 : 0;
      span[w] = difference >>> 0;
    }
    // log2 of (span + 1) rounded down: the span's bit length, or all of it when it is all ones.
    const hostBits = Math.min(trailingZeros(cursor, 0), spanBits(), 127);
    out.push(formatIpv6(cursor, 0, 128 - hostBits));
    setHostBits(cursor, 0, 128 - hostBits);
    if (compareIpv6(cursor, 0, ranges, end) >= 0 || !incrementIpv6(cursor, 0)) return;
  }
}

/** The largest n with 2^n - 1 <= `span`. */
function spanBits(): number {
  for (let w = 0; w < ipv6Words; w += 1) {
    const word = span[w]!;
    if (word === 0) continue;
    const length = 32 * (ipv6Words - w) - Math.clz32(word);
    // 2^length - 1 fits only when every bit below the top one is set too.
    let allOnes = word === 0xffffffff >>> Math.clz32(word);
    for (let below = w + 1; below < ipv6Words; below += 1) allOnes &&= span[below] === 0xffffffff;
    return allOnes ? length : length - 1;
  }
  return 0;
}

/** Canonical text of the block at `at`: compressed, a bare address for a /128. */
function formatIpv6(words: Uint32Array, at: number, prefix: number): string {
  const groups: number[] = [];
  for (let w = 0; w < ipv6Words; w += 1) groups.push(words[at + w]! >>> 16, words[at + w]! & 0xffff);
  const address = formatIpv6Groups(groups);
  return prefix === 128 ? address : `${address}/${prefix}`;
}
