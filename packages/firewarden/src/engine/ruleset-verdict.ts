/**
 * @module What the whole filter table does with one inbound packet: the built-in INPUT chain
 * walked line by line (foreign accepts and drops, jumps into other tools' chains and into ours,
 * RETURN), then the chain's policy. Our chain is evaluated from a rule list, so the lockout check
 * can compare the ruleset with our rules as they are and as they would be. A foreign line whose
 * match the rule model cannot read (conntrack state, sets, marks) decides nothing: it is stepped
 * over, which is right for a new connection from the operator in the cases that matter
 * (`--ctstate ESTABLISHED` accepts, LOG lines, fail2ban's set lookups for other addresses).
 */
import { parseNetwork } from './addresses.js';
import { ownedChains } from './iptables-chains.js';
import { ruleFromTokens } from './iptables-parse.js';
import { tokenizeRuleLine } from './iptables-tokens.js';
import { firstMatch, type Packet } from './match.js';
import type { Rule } from './rule.js';

/** The lines of the kernel that are not ours, as the agent's `read_rules` answers them. */
export interface RulesetView {
  foreign: { family: string; table: string; chain: string; rule: string; position?: number }[];
  policies: { family: string; table: string; chain: string; policy: string }[];
  /** Where the built-in chains jump to ours (1-based), iptables backend only. */
  own_jumps: { family: string; chain: string; position: number }[];
}

/** Where our rules live: `FIREWARDEN-INPUT` (iptables, jumped to from INPUT) or `ufw-user-input`. */
export interface OwnChain {
  chain: string;
  rules: readonly Rule[];
}

/** Our inbound chain on each backend. */
export function ownInputChain(backend: 'iptables' | 'ufw'): string {
  return backend === 'ufw' ? 'ufw-user-input' : ownedChains.in;
}

/** Nested jumps followed at most: a loop in foreign chains cannot hang the check. */
const maxDepth = 16;

export function inboundVerdict(view: RulesetView, ours: OwnChain, packet: Packet): 'allow' | 'deny' {
  const family = parseNetwork(packet.source)?.family ?? 'ipv4';
  const chains = new Map<string, string[]>();
  for (const line of view.foreign) {
    if (line.family !== family || line.table !== 'filter') continue;
    chains.set(line.chain, [...(chains.get(line.chain) ?? []), line.rule]);
  }
  if (ours.chain === ownedChains.in) chains.set('INPUT', withOurJump(view, family));
  const policy = view.policies.find(
    (p) => p.family === family && p.table === 'filter' && p.chain === 'INPUT',
  );

  const evaluate = (chain: string, depth: number): 'allow' | 'deny' | null => {
    if (chain === ours.chain) {
      const action = firstMatch(ours.rules, packet);
      return action === null ? null : action === 'allow' || action === 'limit' ? 'allow' : 'deny';
    }
    if (depth > maxDepth) return null;
    for (const line of chains.get(chain) ?? []) {
      const tokens = tokenizeRuleLine(line)?.slice(2) ?? [];
      const at = tokens.findIndex((token) => token === '-j' || token === '-g');
      const target = at === -1 ? undefined : tokens[at + 1];
      if (target === undefined) continue;
      const matchTokens = withoutKnownFacts(tokens.slice(0, at));
      if (matchTokens === null) continue;
      const match = ruleFromTokens(ownedChains.in, [...matchTokens, '-j', 'ACCEPT'], family);
      if (match === null || firstMatch([match], packet) === null) continue;
      if (target === 'ACCEPT') return 'allow';
      if (target === 'DROP' || target === 'REJECT') return 'deny';
      if (target === 'RETURN') return null;
      const verdict = evaluate(target, depth + 1);
      if (verdict !== null) return verdict;
    }
    return null;
  };
  return evaluate('INPUT', 0) ?? (policy?.policy === 'DROP' ? 'deny' : 'allow');
}

/**
 * What is known of the operator's packet beyond the rule model: a new connection (conntrack
 * state NEW) to a unicast address of this host (addrtype LOCAL). Matches on those facts are
 * dropped from the line; a line that needs another state or address type cannot match (null).
 * ufw's `ufw-not-local` (`--dst-type LOCAL -j RETURN` before a `DROP`) is read right so.
 */
function withoutKnownFacts(tokens: string[]): string[] | null {
  const kept: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const [flag, value, next, nextValue] = [tokens[i], tokens[i + 1], tokens[i + 2], tokens[i + 3]];
    if (flag === '-m' && value === 'addrtype' && next === '--dst-type') {
      if (nextValue !== 'LOCAL') return null;
      i += 3;
    } else if (
      flag === '-m' &&
      (value === 'conntrack' || value === 'state') &&
      (next === '--ctstate' || next === '--state')
    ) {
      if (!(nextValue ?? '').split(',').includes('NEW')) return null;
      i += 3;
    } else kept.push(flag!);
  }
  return kept;
}

/**
 * INPUT's foreign lines in order with our jump at its place; a ruleset without the jump yet gets
 * it first, where a write inserts it.
 */
function withOurJump(view: RulesetView, family: string): string[] {
  const input = view.foreign
    .filter((line) => line.family === family && line.table === 'filter' && line.chain === 'INPUT')
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const jump = view.own_jumps.find((j) => j.family === family && j.chain === 'INPUT');
  const at = jump === undefined ? 0 : input.filter((line) => (line.position ?? 0) < jump.position).length;
  const lines = input.map((line) => line.rule);
  lines.splice(at, 0, `-A INPUT -j ${ownedChains.in}`);
  return lines;
}
