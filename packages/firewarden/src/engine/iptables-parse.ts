/**
 * @module `iptables-save` output -> tables, chains and rule lines, and the rules of our own chains
 * back into the rule model. A rule line we cannot express (negation, other matches, other
 * targets) is kept as text in `unparsed` instead of being guessed at.
 */
import type { Family } from './addresses.js';
import { listOfSet } from './blocklist.js';
import { directionOfChain } from './iptables-chains.js';
import { tokenizeRuleLine } from './iptables-tokens.js';
import { directions, type Rule } from './rule.js';
import { validateRule } from './validate.js';

interface SaveRule {
  chain: string;
  /** Tokens after `-A <chain>`. */
  tokens: string[];
  line: string;
}

export interface SaveTable {
  name: string;
  chains: { name: string; policy: string }[];
  rules: SaveRule[];
}

export function parseIptablesSave(text: string): SaveTable[] {
  const tables: SaveTable[] = [];
  let table: SaveTable | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('*')) {
      table = { name: line.slice(1).trim(), chains: [], rules: [] };
      tables.push(table);
    } else if (table === null || line.startsWith('#') || line.trim() === '') {
    } else if (line === 'COMMIT') {
      table = null;
    } else if (line.startsWith(':')) {
      const [name = '', policy = '-'] = line.slice(1).split(' ');
      table.chains.push({ name, policy });
    } else if (line.startsWith('-A ')) {
      const tokens = tokenizeRuleLine(line);
      if (tokens === null || tokens.length < 2) continue;
      table.rules.push({ chain: tokens[1]!, tokens: tokens.slice(2), line });
    }
  }
  return tables;
}

const actionOfTarget: Record<string, Rule['action']> = { ACCEPT: 'allow', DROP: 'deny', REJECT: 'reject' };

/** One rule line of an owned chain -> a rule, or null when the line uses what the model lacks. */
export function ruleFromTokens(chain: string, tokens: string[], family: Family): Rule | null {
  const direction = directionOfChain.get(chain);
  if (direction === undefined) return null;
  const raw: Record<string, unknown> = { direction, family, protocol: 'any' };
  for (let i = 0; i < tokens.length; i += 1) {
    const flag = tokens[i]!;
    const value = tokens[i + 1];
    const take = (field: string, transform: (v: string) => string = (v) => v) => {
      if (value === undefined) return false;
      raw[field] = transform(value);
      i += 1;
      return true;
    };
    // `--match-set fw4-<list> src`: a blocklist of ours, of this family, as the source.
    const takeBlocklist = () => {
      const set = value === undefined ? null : listOfSet(value);
      if (set === null || set.family !== family || tokens[i + 2] !== 'src' || raw.source !== undefined)
        return false;
      raw.source = `@${set.list}`;
      i += 2;
      return true;
    };
    const known =
      (flag === '-s' && take('source')) ||
      (flag === '-d' && take('destination')) ||
      ((flag === '-i' || flag === '-o') && take('interface')) ||
      (flag === '-p' && take('protocol', (p) => (p === 'ipv6-icmp' || p === 'icmpv6' ? 'icmp' : p))) ||
      (flag === '-m' &&
        ['tcp', 'udp', 'multiport', 'comment', 'set'].includes(value ?? '') &&
        take('_match')) ||
      (flag === '--match-set' && takeBlocklist()) ||
      ((flag === '--dport' || flag === '--dports') && take('destination_port')) ||
      ((flag === '--sport' || flag === '--sports') && take('source_port')) ||
      (flag === '--comment' && take('comment')) ||
      (flag === '-j' && take('action', (target) => actionOfTarget[target] ?? '?')) ||
      (flag === '--reject-with' && take('_reject'));
    if (!known) return null;
  }
  delete raw._match;
  delete raw._reject;
  if (raw.action === undefined || raw.action === '?') return null;
  const validated = validateRule(raw, 'rule');
  return validated.ok ? validated.rule : null;
}

export interface ReadRules {
  rules: Rule[];
  /** Lines of our chains the model cannot express, verbatim. */
  unparsed: string[];
}

/**
 * The rules of our chains in one family's `iptables-save` output: grouped by direction (in, out,
 * forward), each chain in its own order. Rules of different directions never meet the same
 * packet, so this grouping is the canonical order of a rule list.
 */
export function readOwnedRules(saveText: string, family: Family): ReadRules {
  const filter = parseIptablesSave(saveText).find((table) => table.name === 'filter');
  const rules: Rule[] = [];
  const unparsed: string[] = [];
  for (const line of filter?.rules ?? []) {
    if (!directionOfChain.has(line.chain)) continue;
    const rule = ruleFromTokens(line.chain, line.tokens, family);
    if (rule === null) unparsed.push(line.line);
    else rules.push(rule);
  }
  const rank = (rule: Rule) => directions.indexOf(rule.direction);
  return { rules: rules.sort((a, b) => rank(a) - rank(b)), unparsed };
}

/** Targets that never let a packet through: a line with one of them cannot keep anything open. */
const closingTargets = new Set(['DROP', 'REJECT', 'LOG']);

/**
 * What the lockout check assumes of lines of our chains it cannot read (`unparsed`): one that may
 * accept (a jump to anything but DROP, REJECT or LOG: ACCEPT, RETURN, a user chain) stands for an allow of
 * everything in its direction, placed first. Dropping such a line then counts as closing whatever
 * it may have let through (a conntrack `ESTABLISHED` accept keeping this very session open).
 */
export function lockoutStandIns(lines: readonly string[]): Rule[] {
  return lines.flatMap((line) => {
    const tokens = tokenizeRuleLine(line) ?? [];
    const direction = directionOfChain.get(tokens[1] ?? '');
    const jump = tokens.findIndex((token) => token === '-j' || token === '-g');
    const target = jump === -1 ? undefined : tokens[jump + 1];
    if (direction === undefined || target === undefined || closingTargets.has(target)) return [];
    const allowAll: Rule = {
      direction,
      action: 'allow',
      protocol: 'any',
      destination_port: 'any',
      source_port: 'any',
      family: 'both',
      source: 'any',
      destination: 'any',
      interface: null,
      comment: null,
    };
    return [allowAll];
  });
}

/** A rule whose addresses say nothing of the family (none, or a blocklist, which has a set per family). */
const familyless = (rule: Rule) =>
  (rule.source === 'any' || rule.source.startsWith('@')) && rule.destination === 'any';

/**
 * Joins the IPv4 and IPv6 lists: a rule present in both with no address becomes one `both` rule.
 * The order within each family is kept, which is all that matters: rules of different families
 * never meet the same packet.
 */
export function mergeFamilies(ipv4: Rule[], ipv6: Rule[]): Rule[] {
  const key = (rule: Rule) => JSON.stringify({ ...rule, family: null });
  const ipv6Keys = ipv6.map(key);
  const merged: Rule[] = [];
  let next = 0;
  for (const rule of ipv4) {
    const twin = familyless(rule) ? ipv6Keys.indexOf(key(rule), next) : -1;
    if (twin === -1) {
      merged.push(rule);
      continue;
    }
    merged.push(...ipv6.slice(next, twin), { ...rule, family: 'both' });
    next = twin + 1;
  }
  merged.push(...ipv6.slice(next));
  return merged;
}
