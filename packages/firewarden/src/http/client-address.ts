/**
 * @module The client address of a request: the TCP peer, unless the peer is one of the configured
 * trusted proxies (addresses or CIDR blocks), in which case the nearest untrusted address of
 * `X-Forwarded-For` (the rightmost hop no trusted proxy added). An untrusted peer's header is
 * ignored: anyone can send one.
 */
import { isIP } from 'node:net';
import type { ProxyMatcher } from '../config/trusted-proxies.js';

/** `X-Forwarded-For` values longer than this are ignored rather than split. */
const maxForwardedLength = 1_024;

export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  isTrustedProxy: ProxyMatcher,
): string {
  const address = normalise(peer ?? '') || 'unknown';
  if (!isTrustedProxy(address) || !forwardedFor || forwardedFor.length > maxForwardedLength) return address;
  const hops = forwardedFor.split(',').map((hop) => normalise(hop.trim()));
  // Walk from the proxy back towards the client; the first hop we do not trust is the client.
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    if (isIP(hop) === 0) return address;
    if (!isTrustedProxy(hop)) return hop;
  }
  return address;
}

/** `::ffff:127.0.0.1` -> `127.0.0.1`, so one client has one spelling. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
