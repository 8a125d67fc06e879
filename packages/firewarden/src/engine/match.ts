/**
 * @module The set of packets a rule matches, and the relations between two such sets that the
 * analysis needs: "every packet of B is matched by A" (shadowing) and "some packet is matched by
 * both" (overlap). Also first-match evaluation of a single packet against a rule list.
 */
import { type Family, type Network, networkContains, networksIntersect, parseNetwork } from './addresses.js';
import { blocklistReference } from './blocklist.js';
import { type PortSpec, parsePorts, portsContain, portsInclude, portsIntersect } from './ports.js';
import type { Rule } from './rule.js';

/** A rule's match parsed once (addresses and ports), so comparing two rules parses nothing. */
export interface RuleMatch {
  direction: Rule['direction'];
  families: Set<Family>;
  protocol: Rule['protocol'];
  source: Network | null;
  /** A blocklist as the source (`@name`); `source` is then null. */
  sourceList: string | null;
  destination: Network | null;
  sourcePorts: PortSpec;
  destinationPorts: PortSpec;
  interface: string | null;
}

export function ruleMatch(rule: Rule): RuleMatch {
  const network = (text: string) => (text === 'any' ? null : parseNetwork(text));
  const sourceList = blocklistReference(rule.source);
  const ports = (text: string) => {
    const parsed = parsePorts(text);
    return parsed.ok ? parsed.ports : null;
  };
  return {
    direction: rule.direction,
    families: new Set<Family>(rule.family === 'both' ? ['ipv4', 'ipv6'] : [rule.family]),
    protocol: rule.protocol,
    source: sourceList === null ? network(rule.source) : null,
    sourceList,
    destination: network(rule.destination),
    sourcePorts: ports(rule.source_port),
    destinationPorts: ports(rule.destination_port),
    interface: rule.interface,
  };
}

/** Whether every packet `inner` matches is also matched by `outer`. */
export function ruleCovers(outer: Rule, inner: Rule): boolean {
  return matchCovers(ruleMatch(outer), ruleMatch(inner));
}

/** Whether at least one packet is matched by both rules. */
export function rulesIntersect(first: Rule, second: Rule): boolean {
  return matchesIntersect(ruleMatch(first), ruleMatch(second));
}

export function matchCovers(a: RuleMatch, b: RuleMatch): boolean {
  return (
    a.direction === b.direction &&
    [...b.families].every((family) => a.families.has(family)) &&
    (a.protocol === 'any' || a.protocol === b.protocol) &&
    (a.interface === null || a.interface === b.interface) &&
    (a.source === null || (b.source !== null && networkContains(a.source, b.source))) &&
    // A list covers only itself (its content is not the analysis's to know); any covers it.
    (a.sourceList === null || a.sourceList === b.sourceList) &&
    (a.destination === null || (b.destination !== null && networkContains(a.destination, b.destination))) &&
    portsContain(a.sourcePorts, b.sourcePorts) &&
    portsContain(a.destinationPorts, b.destinationPorts)
  );
}

export function matchesIntersect(a: RuleMatch, b: RuleMatch): boolean {
  const optional = <T>(x: T | null, y: T | null, meet: (x: T, y: T) => boolean) =>
    x === null || y === null || meet(x, y);
  return (
    a.direction === b.direction &&
    [...a.families].some((family) => b.families.has(family)) &&
    (a.protocol === 'any' || b.protocol === 'any' || a.protocol === b.protocol) &&
    optional(a.interface, b.interface, (x, y) => x === y) &&
    optional(a.source, b.source, networksIntersect) &&
    optional(a.destination, b.destination, networksIntersect) &&
    portsIntersect(a.sourcePorts, b.sourcePorts) &&
    portsIntersect(a.destinationPorts, b.destinationPorts)
  );
}

/** One inbound TCP connection attempt, as the lockout check models the operator's session. */
export interface Packet {
  direction: Rule['direction'];
  protocol: 'tcp' | 'udp';
  source: string;
  destination_port: number;
  interface?: string;
  /** The blocklists holding `source` (the lockout check asks the kernel, or the list being set). */
  source_lists?: ReadonlySet<string>;
}

/** The action of the first rule matching the packet, or null when none does. */
export function firstMatch(rules: readonly Rule[], packet: Packet): Rule['action'] | null {
  const source = parseNetwork(packet.source);
  return rules.find((rule) => matchesPacket(ruleMatch(rule), packet, source))?.action ?? null;
}

/** Whether the match takes the packet; `source` is the packet's source, parsed once by the caller. */
export function matchesPacket(m: RuleMatch, packet: Packet, source: Network | null): boolean {
  if (m.direction !== packet.direction) return false;
  if (m.protocol !== 'any' && m.protocol !== packet.protocol) return false;
  if (source !== null && !m.families.has(source.family)) return false;
  if (m.source !== null && (source === null || !networkContains(m.source, source))) return false;
  if (m.sourceList !== null && !(packet.source_lists?.has(m.sourceList) ?? false)) return false;
  if (m.interface !== null && m.interface !== packet.interface) return false;
  if (!portsInclude(m.destinationPorts, packet.destination_port)) return false;
  // The client's source port is unknown: a rule restricted to source ports does not decide.
  return m.sourcePorts === null;
}
