/**
 * @module Docker's published ports follow the inbound rules. `-p 8080:80` DNATs in PREROUTING,
 * so the connection is forwarded to the container and never crosses INPUT: our input rules (and
 * ufw's) do not see it. Docker leaves `DOCKER-USER` to the operator, first in FORWARD; we jump
 * from it to our `FIREWARDEN-DOCKER` chain, which repeats each inbound rule matched on the
 * connection's original destination (`-m conntrack --ctstate DNAT --ctdir ORIGINAL
 * --ctorigdstport`), so a rule on port 8080 governs the container port published on 8080. Allow
 * hands the packet back to Docker's own chains (`RETURN`); deny and reject drop or reject it.
 * Replies (`--ctdir REPLY`) and the containers' own outbound traffic (not DNATed) never match.
 */
import type { Family } from './addresses.js';
import { sourceTokens } from './blocklist.js';
import { formatPorts, parsePorts } from './ports.js';
import type { Rule } from './rule.js';

const targets = { allow: 'RETURN', deny: 'DROP', reject: 'REJECT' } as const;

/** The lines (tokens after `-A FIREWARDEN-DOCKER`) that make Docker's published ports follow `rule`. */
export function dockerRuleTokens(rule: Rule, family: Family): string[][] {
  if (rule.direction !== 'in' || rule.action === 'limit' || rule.protocol === 'icmp') return [];
  if (rule.family !== 'both' && rule.family !== family) return [];
  const items = (text: string) => {
    const parsed = parsePorts(text);
    return parsed.ok && parsed.ports !== null
      ? parsed.ports.map((range) => formatPorts([range], ':'))
      : [null];
  };
  const hasPorts = rule.destination_port !== 'any' || rule.source_port !== 'any';
  // A port match needs a protocol: "any" with a port means both of the protocols that have ports.
  const protocols = rule.protocol !== 'any' ? [rule.protocol] : hasPorts ? ['tcp', 'udp'] : [null];
  const lines: string[][] = [];
  for (const protocol of protocols) {
    for (const destination of items(rule.destination_port)) {
      for (const source of items(rule.source_port)) {
        const tokens: string[] = sourceTokens(rule.source, family);
        if (rule.interface !== null) tokens.push('-i', rule.interface);
        if (protocol !== null) tokens.push('-p', protocol);
        // In the order iptables-save prints the conntrack options.
        tokens.push('-m', 'conntrack', '--ctstate', 'DNAT');
        if (rule.destination !== 'any') tokens.push('--ctorigdst', rule.destination);
        if (source !== null) tokens.push('--ctorigsrcport', source);
        if (destination !== null) tokens.push('--ctorigdstport', destination);
        tokens.push('--ctdir', 'ORIGINAL');
        if (rule.comment !== null) tokens.push('-m', 'comment', '--comment', rule.comment);
        tokens.push('-j', targets[rule.action]);
        lines.push(tokens);
      }
    }
  }
  return lines;
}
