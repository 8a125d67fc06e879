/**
 * @module Rules -> `iptables-restore --noflush` input for the filter table of one family. The
 * input declares our chains (which flushes them in --noflush mode), fills them in rule order and
 * adds the jump from each built-in chain only where `iptables-save` shows it missing, so one
 * restore replaces exactly what we own, atomically, and leaves every other rule as it was.
 */
import type { Family } from './addresses.js';
import { sourceTokens } from './blocklist.js';
import { dockerRuleTokens } from './docker-published-ports.js';
import { builtinChainOf, dockerChain, dockerUserChain, ownedChains } from './iptables-chains.js';
import { parseIptablesSave, type SaveTable } from './iptables-parse.js';
import { formatPorts, parsePorts } from './ports.js';
import { directions, type Rule } from './rule.js';

const targets: Record<Exclude<Rule['action'], 'limit'>, string> = {
  allow: 'ACCEPT',
  deny: 'DROP',
  reject: 'REJECT',
};

export function appliesToFamily(rule: Rule, family: Family): boolean {
  return rule.family === 'both' || rule.family === family;
}

/** The tokens after `-A <chain>` for one rule, in the order iptables-save prints them. */
export function ruleTokens(rule: Rule, family: Family): string[] {
  if (rule.action === 'limit') throw new Error('the iptables backend has no "limit" action');
  const tokens: string[] = sourceTokens(rule.source, family);
  if (rule.destination !== 'any') tokens.push('-d', rule.destination);
  if (rule.interface !== null) tokens.push(rule.direction === 'out' ? '-o' : '-i', rule.interface);
  if (rule.protocol !== 'any') {
    const protocol = rule.protocol === 'icmp' && family === 'ipv6' ? 'ipv6-icmp' : rule.protocol;
    tokens.push('-p', protocol);
  }
  tokens.push(...portTokens(rule));
  if (rule.comment !== null) tokens.push('-m', 'comment', '--comment', rule.comment);
  tokens.push('-j', targets[rule.action]);
  return tokens;
}

/**
 * A single port or range goes into the protocol's own match (`-m tcp --dport 22`); a list needs
 * multiport, which takes either source or destination ports, so each list gets its own match.
 */
function portTokens(rule: Rule): string[] {
  const parse = (text: string) => {
    const parsed = parsePorts(text);
    return parsed.ok ? parsed.ports : null;
  };
  const sides = [
    { ports: parse(rule.source_port), single: '--sport', list: '--sports' },
    { ports: parse(rule.destination_port), single: '--dport', list: '--dports' },
  ];
  const singles = sides.filter((side) => side.ports?.length === 1);
  const lists = sides.filter((side) => side.ports !== null && side.ports.length > 1);
  return [
    ...(singles.length > 0 ? ['-m', rule.protocol] : []),
    ...singles.flatMap((side) => [side.single, formatPorts(side.ports, ':')]),
    ...lists.flatMap((side) => ['-m', 'multiport', side.list, formatPorts(side.ports, ':')]),
  ];
}

/** Quotes a token for restore input when it holds a space (validated comments hold no quotes). */
function restoreToken(token: string): string {
  return token === '' || token.includes(' ') ? `"${token}"` : token;
}

/**
 * The restore input that makes our chains hold `rules` (for this family). `currentSave` is the
 * family's `iptables-save` output, used only to see which jumps already exist.
 */
export function renderOwnedTable(
  rules: readonly Rule[],
  family: Family,
  currentSave: string,
  options: { followDocker: boolean } = { followDocker: false },
): string {
  const filter = parseIptablesSave(currentSave).find((table) => table.name === 'filter');
  // Docker's published ports follow our inbound rules where Docker's DOCKER-USER chain exists.
  const docker = options.followDocker ? dockerTableLines(rules, family, filter) : null;
  const lines = ['*filter'];
  for (const direction of directions) lines.push(`:${ownedChains[direction]} - [0:0]`);
  if (docker) lines.push(docker.declare);
  for (const direction of directions) {
    const builtin = builtinChainOf[direction];
    const chain = ownedChains[direction];
    if (!hasJump(filter, builtin, chain)) lines.push(`-I ${builtin} 1 -j ${chain}`);
  }
  if (docker) lines.push(...docker.jump);
  for (const rule of rules) {
    if (!appliesToFamily(rule, family)) continue;
    lines.push(restoreLine(ownedChains[rule.direction], ruleTokens(rule, family)));
  }
  if (docker) lines.push(...docker.rules);
  lines.push('COMMIT', '');
  return lines.join('\n');
}

/**
 * The restore input that makes only our FIREWARDEN-DOCKER chain hold `rules` (the ufw backend,
 * whose other rules are ufw's), or null where Docker's DOCKER-USER chain is absent.
 */
export function renderDockerTable(
  rules: readonly Rule[],
  family: Family,
  currentSave: string,
): string | null {
  const filter = parseIptablesSave(currentSave).find((table) => table.name === 'filter');
  const docker = dockerTableLines(rules, family, filter);
  return docker && ['*filter', docker.declare, ...docker.jump, ...docker.rules, 'COMMIT', ''].join('\n');
}

type FilterTable = SaveTable | undefined;

const hasJump = (filter: FilterTable, builtin: string, chain: string) =>
  filter?.rules.some((r) => r.chain === builtin && r.tokens.join(' ') === `-j ${chain}`) ?? false;

/** One `-A <chain> ...` line of restore input. */
export const restoreLine = (chain: string, tokens: string[]) =>
  ['-A', chain, ...tokens].map(restoreToken).join(' ');

/** FIREWARDEN-DOCKER's declaration, its jump from DOCKER-USER if missing, and its lines; null without Docker. */
function dockerTableLines(rules: readonly Rule[], family: Family, filter: FilterTable) {
  if (!(filter?.chains.some((c) => c.name === dockerUserChain) ?? false)) return null;
  return {
    declare: `:${dockerChain} - [0:0]`,
    jump: hasJump(filter, dockerUserChain, dockerChain) ? [] : [`-I ${dockerUserChain} 1 -j ${dockerChain}`],
    rules: rules.flatMap((rule) =>
      dockerRuleTokens(rule, family).map((tokens) => restoreLine(dockerChain, tokens)),
    ),
  };
}
