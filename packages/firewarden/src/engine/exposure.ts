/**
 * @module Whether the outside can reach a listening socket through the ruleset in force. A socket
 * bound to loopback is `loopback_only`. Otherwise a connection to its port is evaluated through
 * the whole INPUT chain (`ruleset-verdict.ts`), per family the socket accepts (`0.0.0.0`: IPv4,
 * `::`: both): let through from a stand-in outside address (TEST-NET) it is `exposed` (a ban
 * list of some addresses does not change that); refused to it but let through from a source
 * network some rule names (ours or foreign) it is `partly`; refused to all, `blocked`. `rules`
 * are the positions (1-based, as `GET /firewall/rules` lists them) of our inbound rules that
 * match its protocol and port.
 */
import { type Family, networkContains, parseNetwork } from './addresses.js';
import { tokenizeRuleLine } from './iptables-tokens.js';
import { ruleMatch } from './match.js';
import { portsInclude } from './ports.js';
import { type OwnChain, type RulesetView, rulesetVerdict } from './ruleset-verdict.js';

export type Exposure = 'loopback_only' | 'blocked' | 'exposed' | 'partly';

interface SocketToClassify {
  protocol: 'tcp' | 'udp';
  family: Family;
  address: string;
  port: number;
}

const outside: Record<Family, string> = { ipv4: '198.51.100.1', ipv6: '2001:db8::1' };

/** 127.0.0.0/8 and ::1, also IPv4-mapped (which /proc/net's reader prints as `::ffff:7f00:1`). */
const loopbackNetworks = ['127.0.0.0/8', '::1/128', '::ffff:127.0.0.0/104'].map(
  (text) => parseNetwork(text)!,
);

function isLoopback(address: string): boolean {
  const network = parseNetwork(address);
  return network !== null && loopbackNetworks.some((loopback) => networkContains(loopback, network));
}

/** The first address of each source network named by our rules and the foreign lines. */
function namedSources(view: RulesetView, ours: OwnChain): string[] {
  const foreign = view.foreign.flatMap((line) => {
    const tokens = tokenizeRuleLine(line.rule) ?? [];
    const at = tokens.indexOf('-s');
    return at === -1 || tokens[at + 1] === undefined ? [] : [tokens[at + 1]!];
  });
  return [...ours.rules.map((rule) => rule.source), ...foreign].flatMap((text) => {
    if (text === 'any') return [];
    const slash = text.indexOf('/');
    return parseNetwork(text) === null ? [] : [slash === -1 ? text : text.slice(0, slash)];
  });
}

/**
 * Classifies sockets against one ruleset: the ruleset is parsed and the named sources gathered
 * once, not for every socket and every source tried.
 */
export function exposureClassifier(
  view: RulesetView,
  ours: OwnChain,
): (socket: SocketToClassify) => { exposure: Exposure; rules: number[] } {
  const verdict = rulesetVerdict(view, ours.chain);
  const ourMatches = ours.rules.map(ruleMatch);
  const sources = [...new Set(namedSources(view, ours))];
  return (socket) => {
    const rules = ourMatches.flatMap((match, index) => {
      const protocolMatches = match.protocol === 'any' || match.protocol === socket.protocol;
      return match.direction === 'in' && protocolMatches && portsInclude(match.destinationPorts, socket.port)
        ? [index + 1]
        : [];
    });
    if (isLoopback(socket.address)) return { exposure: 'loopback_only', rules };
    const families: Family[] = socket.address === '::' ? ['ipv4', 'ipv6'] : [socket.family];
    const reaches = (source: string) =>
      verdict(ours.rules, {
        direction: 'in',
        protocol: socket.protocol,
        source,
        destination_port: socket.port,
      }) === 'allow';
    const named = sources.filter((source) => families.includes(parseNetwork(source)?.family ?? 'ipv4'));
    const exposure = families.some((family) => reaches(outside[family]))
      ? 'exposed'
      : named.some(reaches)
        ? 'partly'
        : 'blocked';
    return { exposure, rules };
  };
}
