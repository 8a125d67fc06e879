/**
 * @module `server.trusted_proxies`: addresses (`172.30.0.1`, `::1`) and CIDR blocks
 * (`172.30.0.0/16`, `fd00::/8`) of the reverse proxies whose `X-Forwarded-For` names the client.
 */
import { BlockList, isIP } from 'node:net';

interface TrustedProxy {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** An address or a CIDR block, or undefined (no zone ids, no host bits beyond the prefix checked). */
export function parseTrustedProxy(entry: string): TrustedProxy | undefined {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether an address (already normalised: IPv4-mapped IPv6 as IPv4) is a trusted proxy. */
export type ProxyMatcher = (address: string) => boolean;

export function trustedProxyMatcher(entries: readonly string[]): ProxyMatcher {
  const list = new BlockList();
  for (const entry of entries) {
    const proxy = parseTrustedProxy(entry);
    if (proxy) list.addSubnet(proxy.address, proxy.prefix, proxy.family);
  }
  if (entries.length === 0) return () => false;
  return (address) => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
