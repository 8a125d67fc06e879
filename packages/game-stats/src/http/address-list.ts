/**
 * @module Lists of client addresses (exact addresses and CIDR ranges, IPv4 and IPv6) and the
 * normalisation that makes `::ffff:10.0.0.1` and `10.0.0.1` the same client.
 */
import { BlockList, isIP } from 'node:net';

/**
 * Strips IPv4-mapping (in any spelling: `::ffff:10.0.0.1`, `::ffff:a00:1`,
 * `0:0:0:0:0:ffff:10.0.0.1`) and zone ids, and folds ::1 into 127.0.0.1; returns null for text
 * that is no address.
 */
export function normaliseAddress(address: string): string | null {
  let text = address.trim();
  if (text.length > 64) return null;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const family = isIP(text);
  if (family === 4) return text;
  if (family === 0) return null;
  const groups = ipv6Groups(text);
  const zeroPrefix = groups.slice(0, 5).every((group) => group === 0);
  if (zeroPrefix && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  // Both loopbacks are one client (as in the original plugin): `localhost` may resolve to either.
  if (zeroPrefix && groups[5] === 0 && groups[6] === 0 && groups[7] === 1) return '127.0.0.1';
  return text.toLowerCase();
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(text: string): number[] {
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a client is counted under: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber's usual allocation, so rotating addresses inside it does not reset the count).
 */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

export interface AddressList {
  has(address: string): boolean;
}

/**
 * Builds a matcher from entries such as `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32` or
 * `localhost` (127.0.0.0/8, and ::1 which is folded into 127.0.0.1). Throws on an entry that is
 * neither.
 */
export function createAddressList(entries: readonly string[]): AddressList {
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'localhost') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      continue;
    }
    const [addressText, prefixText] = entry.split('/');
    const address = normaliseAddress(addressText ?? '');
    if (!address) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, family);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 'ipv4' ? 32 : 128)) {
      throw new Error(`"${entry}" has an invalid prefix length`);
    }
    list.addSubnet(address, prefix, family);
  }
  return {
    has(address) {
      const normalised = normaliseAddress(address);
      if (!normalised) return false;
      return list.check(normalised, isIP(normalised) === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The client of a request: the socket peer, or, when the peer is a trusted proxy, the
 * right-most address of `X-Forwarded-For` that is not itself a trusted proxy.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trustedProxies: AddressList | null,
): string {
  const direct = normaliseAddress(peer ?? '') ?? 'unknown';
  if (!trustedProxies || !forwardedFor || !trustedProxies.has(direct)) return direct;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = normaliseAddress(hops[index]!);
    if (!hop) return direct;
    if (!trustedProxies.has(hop)) return hop;
  }
  return direct;
}
