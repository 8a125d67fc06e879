/**
 * @module What the whole filter table does with one inbound packet: the built-in INPUT chain
 * walked line by line (foreign accepts and drops, jumps into other tools' chains and into ours,
 * RETURN), then the chain's policy. Our chain is evaluated from a rule list, so the lockout check
 * can compare the ruleset with our rules as they are and as they would be. A foreign line whose
 * match the rule model cannot read (conntrack state, sets, marks) decides nothing: it is stepped
 * over, which is right for a new connection from the operator in the cases that matter
 * (`--ctstate ESTABLISHED` accepts, LOG lines, fail2ban's set lookups for other addresses).
 */
import { type Family, parseNetwork } from './addresses.js';
import { ownedChains } from './iptables-chains.js';
import { ruleFromTokens } from './iptables-parse.js';
import { tokenizeRuleLine } from './iptables-tokens.js';
import { matchesPacket, type Packet, type RuleMatch, ruleMatch } from './match.js';
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

/** A foreign line the walk can decide on: its match (without the known facts) and its target. */
interface WalkedLine {
  match: RuleMatch;
  target: string;
}

/**
 * What the ruleset does with inbound packets, for many packets and several lists of our rules: each
 * family's lines are tokenized and parsed once, at its first packet, so the lockout check (our
 * rules before and after) and exposure (many sources) walk parsed lines, even under thousands of
 * ban lines. `ownChain` is where our rules live (`ownInputChain`).
 */
export function rulesetVerdict(
  view: RulesetView,
  ownChain: string,
): (ours: readonly Rule[], packet: Packet) => 'allow' | 'deny' {
  const walked = new Map<string, { chains: Map<string, WalkedLine[]>; policy: string | undefined }>();
  const parsedOurs = new WeakMap<readonly Rule[], RuleMatch[]>();
  const rulesetOf = (family: Family) => {
    let ruleset = walked.get(family);
    if (ruleset === undefined) {
      ruleset = { chains: walkedChains(view, ownChain, family), policy: inputPolicy(view, family) };
      walked.set(family, ruleset);
    }
    return ruleset;
  };
  const matchesOf = (ours: readonly Rule[]) => {
    let matches = parsedOurs.get(ours);
    if (matches === undefined) {
      matches = ours.map(ruleMatch);
      parsedOurs.set(ours, matches);
    }
    return matches;
  };
  return (ours, packet) => {
    const source = parseNetwork(packet.source);
    const { chains, policy } = rulesetOf(source?.family ?? 'ipv4');
    const evaluate = (chain: string, depth: number): 'allow' | 'deny' | null => {
      if (chain === ownChain) {
        const at = matchesOf(ours).findIndex((match) => matchesPacket(match, packet, source));
        const action = at === -1 ? null : ours[at]!.action;
        return action === null ? null : action === 'allow' || action === 'limit' ? 'allow' : 'deny';
      }
      if (depth > maxDepth) return null;
      for (const line of chains.get(chain) ?? []) {
        if (!matchesPacket(line.match, packet, source)) continue;
        if (line.target === 'ACCEPT') return 'allow';
        if (line.target === 'DROP' || line.target === 'REJECT') return 'deny';
        if (line.target === 'RETURN') return null;
        const verdict = evaluate(line.target, depth + 1);
        if (verdict !== null) return verdict;
      }
      return null;
    };
    return evaluate('INPUT', 0) ?? (policy === 'DROP' ? 'deny' : 'allow');
  };
}

/** The filter table's chains of one family, each line parsed; lines that cannot match are left out. */
function walkedChains(view: RulesetView, ownChain: string, family: Family): Map<string, WalkedLine[]> {
  const texts = new Map<string, string[]>();
  for (const line of view.foreign) {
    if (line.family !== family || line.table !== 'filter') continue;
    const chain = texts.get(line.chain);
    if (chain === undefined) texts.set(line.chain, [line.rule]);
    else chain.push(line.rule);
  }
  if (ownChain === ownedChains.in) texts.set('INPUT', withOurJump(view, family));
  const chains = new Map<string, WalkedLine[]>();
  for (const [chain, lines] of texts) {
    chains.set(
      chain,
      lines.flatMap((line): WalkedLine[] => {
        const tokens = tokenizeRuleLine(line)?.slice(2) ?? [];
        const at = tokens.findIndex((token) => token === '-j' || token === '-g');
        const target = at === -1 ? undefined : tokens[at + 1];
        if (target === undefined) return [];
        const matchTokens = withoutKnownFacts(tokens.slice(0, at));
        if (matchTokens === null) return [];
        const rule = ruleFromTokens(ownedChains.in, [...matchTokens, '-j', 'ACCEPT'], family);
        return rule === null ? [] : [{ match: ruleMatch(rule), target }];
      }),
    );
  }
  return chains;
}

function inputPolicy(view: RulesetView, family: Family): string | undefined {
  return view.policies.find((p) => p.family === family && p.table === 'filter' && p.chain === 'INPUT')
    ?.policy;
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
