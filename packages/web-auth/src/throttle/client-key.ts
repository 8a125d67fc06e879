/**
 * @module The throttling identity of a client address: IPv4 as is, IPv4-mapped IPv6 as its IPv4,
 * other IPv6 by its /64 (one subscriber usually holds a whole /64, so counting single addresses
 * would let them rotate through 2^64 of them).
 */
import { isIPv4, isIPv6 } from 'node:net';

const maxAddressLength = 64;

/** Expands an IPv6 address (no zone) to its 8 hextets as numbers. */
function ipv6Hextets(address: string): number[] | undefined {
  let text = address;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = `${text.slice(0, lastColon + 1)}0`;
  }
  const halves = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((hex) => Number.parseInt(hex, 16)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length > 1 ? parse(halves[1] ?? '') : [];
  if (tail.length > 0) (rest.length > 0 ? rest : head).pop();
  const missing = 8 - tail.length - head.length - rest.length;
  const hextets = [...head, ...Array<number>(halves.length > 1 ? missing : 0).fill(0), ...rest, ...tail];
  return hextets.length === 8 ? hextets : undefined;
}

/** `1.2.3.4`, `2001:db8:0:1::/64`, or `other:<address>` for anything that is not an IP address. */
export function clientKey(address: string | null | undefined): string {
  const raw = (address ?? '').slice(0, maxAddressLength).trim();
  if (isIPv4(raw)) return raw;
  const unzoned = raw.split('%', 1)[0] ?? '';
  if (!isIPv6(unzoned)) return `other:${raw.toLowerCase()}`;
  const hextets = ipv6Hextets(unzoned.toLowerCase());
  if (!hextets) return `other:${raw.toLowerCase()}`;
  const isMapped = hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff;
  if (isMapped) {
    const [high, low] = [hextets[6] ?? 0, hextets[7] ?? 0];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${hextets
    .slice(0, 4)
    .map((hextet) => hextet.toString(16))
    .join(':')}::/64`;
}
