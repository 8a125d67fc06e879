/**
 * @module The normalized rule model: the spec's `direction`, `action`, `protocol` and
 * `destination_port` (strings), extended with what real rules need (family, `source` and
 * `destination` addresses, `source_port`, interface, comment, position). Everything beyond the
 * spec's four fields is optional on input. A template is an array of rules.
 */

export const directions = ['in', 'out', 'forward'] as const;
/** `limit` is ufw's rate-limited allow; the iptables backend refuses it (see validate.ts). */
export const actions = ['allow', 'deny', 'reject', 'limit'] as const;
/** `icmp` means the family's ICMP (ICMPv6 on IPv6). */
export const protocols = ['any', 'tcp', 'udp', 'icmp'] as const;
export const families = ['ipv4', 'ipv6', 'both'] as const;

export type Direction = (typeof directions)[number];
export type Action = (typeof actions)[number];
type Protocol = (typeof protocols)[number];
type RuleFamily = (typeof families)[number];

/** A validated rule in canonical form: addresses and ports normalized, defaults filled in. */
export interface Rule {
  direction: Direction;
  action: Action;
  protocol: Protocol;
  /** `any`, `22`, `80,443`, `1000-2000`. */
  destination_port: string;
  source_port: string;
  family: RuleFamily;
  /** `any`, a host or a CIDR block. */
  source: string;
  destination: string;
  interface: string | null;
  comment: string | null;
}

export const ruleFields = [
  'direction',
  'action',
  'protocol',
  'destination_port',
  'source_port',
  'family',
  'source',
  'destination',
  'interface',
  'comment',
  'position',
] as const;
