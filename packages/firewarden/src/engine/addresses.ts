/**
 * @module Addresses of the rule model: `any`, a host or a CIDR block, IPv4 or IPv6, parsed without
 * regular expressions (node's `isIP` plus an integer prefix) into a canonical network so rules can
 * be compared by containment.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type Family = 'ipv4' | 'ipv6';

export interface Network {
  family: Family;
  /** The network address as a 32- or 128-bit integer, host bits cleared. */
  base: bigint;
  prefix: number;
}

/** Long enough for any IPv6 text with a prefix; longer input is refused before parsing. */
export const maxAddressLength = 64;

/**
 * A zone id (`fe80::1%eth0`) names an interface, not an address: node's `isIPv6` accepts it, but
 * neither the rule model nor iptables/ufw can express it, and its text would otherwise be parsed
 * as part of the address (`2001:db8::1%:ffff:ffff`).
 */
export function hasZoneId(text: string): boolean {
  return text.includes('%');
}

export function parseNetwork(text: string): Network | null {
  if (text.length === 0 || text.length > maxAddressLength || hasZoneId(text)) return null;
  const slash = text.indexOf('/');
  const host = slash === -1 ? text : text.slice(0, slash);
  const family: Family | null = isIPv4(host) ? 'ipv4' : isIPv6(host) ? 'ipv6' : null;
  if (family === null) return null;
  const bits = family === 'ipv4' ? 32 : 128;
  const prefix = slash === -1 ? bits : parsePrefix(text.slice(slash + 1), bits);
  if (prefix === null) return null;
  const value = family === 'ipv4' ? ipv4ToBigInt(host) : ipv6ToBigInt(host);
  return { family, base: value & prefixMask(prefix, bits), prefix };
}

/** The digits after a `/`: 1-3 decimal digits, at most `bits`; null otherwise. */
export function parsePrefix(digits: string, bits: number): number | null {
  if (digits.length === 0 || digits.length > 3 || ![...digits].every((c) => c >= '0' && c <= '9'))
    return null;
  const prefix = Number(digits);
  return prefix > bits ? null : prefix;
}

/** Canonical text: `10.0.0.0/8`, a bare host for a full prefix, compressed IPv6. */
export function formatNetwork(network: Network): string {
  const bits = network.family === 'ipv4' ? 32 : 128;
  const address = network.family === 'ipv4' ? bigIntToIpv4(network.base) : bigIntToIpv6(network.base);
  return network.prefix === bits ? address : `${address}/${network.prefix}`;
}

/** Whether every address of `inner` is in `outer` (same family only). */
export function networkContains(outer: Network, inner: Network): boolean {
  if (outer.family !== inner.family || outer.prefix > inner.prefix) return false;
  const bits = outer.family === 'ipv4' ? 32 : 128;
  return (inner.base & prefixMask(outer.prefix, bits)) === outer.base;
}

/** The network of `prefix` bits that holds `network` (`prefix` at most the network's own). */
export function enclosingNetwork(network: Network, prefix: number): Network {
  const bits = network.family === 'ipv4' ? 32 : 128;
  return { family: network.family, base: network.base & prefixMask(prefix, bits), prefix };
}

/** The highest address of the network (its broadcast address on IPv4). */
export function lastAddress(network: Network): bigint {
  const bits = network.family === 'ipv4' ? 32 : 128;
  return network.base | ((1n << BigInt(bits - network.prefix)) - 1n);
}

export function networksIntersect(a: Network, b: Network): boolean {
  return networkContains(a, b) || networkContains(b, a);
}

function prefixMask(prefix: number, bits: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return prefix === 0 ? 0n : (all >> BigInt(bits - prefix)) << BigInt(bits - prefix);
}

function ipv4ToBigInt(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function bigIntToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function ipv6ToBigInt(text: string): bigint {
  let groups = text;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = groups.lastIndexOf(':');
  const tail = groups.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToBigInt(tail);
    groups = `${groups.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = groups.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const restParts = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headParts.length - restParts.length;
  const parts = rest === undefined ? headParts : [...headParts, ...Array(missing).fill('0'), ...restParts];
  return parts.reduce((value, part) => (value << 16n) | BigInt(Number.parseInt(part, 16)), 0n);
}

function bigIntToIpv6(value: bigint): string {
  return formatIpv6Groups(
    Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn)),
  );
}

/** The eight 16-bit groups of an IPv6 address as canonical text (RFC 5952). */
export function formatIpv6Groups(parts: readonly number[]): string {
  // Compress the longest run of zero groups, only when it spans at least two groups.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  // Built by concatenation: a blocklist formats hundreds of thousands of these.
  let text = '';
  for (let i = 0; i < 8; i += 1) {
    if (i === bestStart) {
      text += '::';
      i += bestLength - 1;
    } else
      text += i === 0 || i === bestStart + bestLength ? parts[i]!.toString(16) : `:${parts[i]!.toString(16)}`;
  }
  return text;
}
