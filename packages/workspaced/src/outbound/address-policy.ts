/**
 * @module Which IP addresses an outbound delivery (notification webhook, platform webhook) may
 * connect to. Without the private-targets opt-in, every address that reaches this host, its
 * network or a cloud metadata service is refused (reference "Webhook SSRF").
 */
import { BlockList, isIP } from 'node:net';

/** Special-purpose ranges (RFC 6890 and friends): loopback, private, link-local, CGNAT, ULA... */
const refusedRanges: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // RFC 1918
  ['100.64.0.0', 10, 'ipv4'], // RFC 6598 carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // RFC 1918
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped: would reach any IPv4 address past the list above
  ['64:ff9b::', 96, 'ipv6'], // NAT64: the same
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

// One list per family: a single BlockList matches IPv4 addresses against the IPv4-mapped IPv6
// rule too, which would refuse every IPv4 address.
const refused = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [address, prefix, family] of refusedRanges) refused[family].addSubnet(address, prefix, family);

/** True when `address` (an IP literal) is loopback, private, link-local or otherwise special. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? refused.ipv4.check(address, 'ipv4') : refused.ipv6.check(address, 'ipv6');
}
