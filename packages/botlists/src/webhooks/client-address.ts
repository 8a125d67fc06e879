/**
 * @module Who sent a delivery: the socket peer, or behind trusted proxies the right-most
 * `X-Forwarded-For` hop that is not one of them; and the key limits and bans are counted under.
 */
import { BlockList, isIP } from 'node:net';

/** What `trustProxy: true` trusts: proxies on this host or on a private network. */
const PRIVATE_NETWORKS = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
] as const;

/** Longer `X-Forwarded-For` headers are not walked (a real chain has a handful of hops). */
const MAX_FORWARDED_HOPS = 16;

/** `::ffff:10.0.0.1` → `10.0.0.1`, `[::1]` → `::1`; null for text that is no address. */
function normaliseAddress(text: string): string | null {
  let address = text.trim();
  if (address.length > 64) return null;
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return lower.slice(7);
  return isIP(lower) === 0 ? null : lower;
}

export interface ProxyTrust {
  has(address: string): boolean;
}

/** `true` trusts PRIVATE_NETWORKS; a list trusts exactly those addresses and CIDR ranges. */
export function createProxyTrust(trust: boolean | readonly string[]): ProxyTrust | null {
  if (trust === false) return null;
  const entries = trust === true ? PRIVATE_NETWORKS : trust;
  const list = new BlockList();
  for (const entry of entries) {
    const [addressText = '', prefixText] = entry.split('/');
    const address = normaliseAddress(addressText);
    if (!address) throw new TypeError(`trustProxy: "${entry}" is not an IP address or CIDR range`);
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    const prefix = prefixText === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 'ipv4' ? 32 : 128)) {
      throw new TypeError(`trustProxy: "${entry}" has an invalid prefix length`);
    }
    list.addSubnet(address, prefix, family);
  }
  return {
    has(text) {
      const address = normaliseAddress(text);
      return address !== null && list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The peer, unless it is a trusted proxy: then the chain is walked right to left (each proxy
 * appends the address it saw) and the first hop that is not a trusted proxy is the client. The
 * left-most entries are whatever the client wrote and are never believed on their own.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ProxyTrust | null,
): string {
  const direct = normaliseAddress(peer ?? '') ?? 'unknown';
  if (!trusted || !forwardedFor || !trusted.has(direct)) return direct;
  const hops = forwardedFor.split(',', 256);
  const last = Math.max(0, hops.length - MAX_FORWARDED_HOPS);
  let client = direct;
  for (let index = hops.length - 1; index >= last; index--) {
    const hop = normaliseAddress(hops[index]!);
    if (!hop) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
  }
  return client;
}

/** Limits and bans count IPv6 clients per /64 (one subscriber's whole allocation), IPv4 per address. */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; it only matters for the last 64 bits.
  const width = right.some((group) => group.includes('.')) ? 7 : 8;
  const missing = tail === undefined ? 0 : width - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right].map((group) =>
    group.includes('.') ? group : (Number.parseInt(group, 16) || 0).toString(16),
  );
}
