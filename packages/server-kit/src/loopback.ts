/**
 * @module The one answer to "is this host loopback?" for every product: a bind address, a URL's
 * host or a resolved address all go through it, so the products cannot disagree on an edge case.
 */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
// BlockList also matches IPv4-mapped IPv6 (`::ffff:127.0.0.2`) against the IPv4 subnet.
loopback.addSubnet('::1', 128, 'ipv6');

/**
 * True for the name `localhost` (any case), 127.0.0.0/8, `::1` in any spelling, and IPv4-mapped
 * loopback (`::ffff:127.x.y.z`); IPv6 literals may come in brackets (`[::1]`, as in a URL).
 * `0.0.0.0` and `::` are every interface, not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  if (family === 4) return loopback.check(bare, 'ipv4');
  if (family === 6) return loopback.check(bare, 'ipv6');
  return false;
}
