/**
 * @module ufw's `user.rules` / `user6.rules` -> rules. Each rule has a machine-readable line
 * `### tuple ### <action> <proto> <dport> <dst> <sport> <src> [<dapp> <sapp>] <dir>[_<iface>]
 * [comment=<hex>]`; we read those rather than `ufw status`, whose layout changes between versions
 * (the original tool expected comments in parentheses; ufw 0.36 prints `# comment`).
 */
import type { Family } from './addresses.js';
import type { ReadRules } from './iptables-parse.js';
import type { Rule } from './rule.js';
import { validateRule } from './validate.js';

const marker = '### tuple ### ';
const maxTupleLength = 2_048;

export function readUfwTuples(text: string, family: Family): ReadRules {
  const rules: Rule[] = [];
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(marker)) continue;
    const rule = line.length <= maxTupleLength ? ruleFromTuple(line.slice(marker.length), family) : null;
    if (rule === null) unparsed.push(line);
    else rules.push(rule);
  }
  return { rules, unparsed };
}

function ruleFromTuple(tuple: string, family: Family): Rule | null {
  const fields = tuple.split(' ');
  const comment = fields.at(-1)?.startsWith('comment=')
    ? decodeHex(fields.pop()!.slice('comment='.length))
    : null;
  if (comment === undefined) return null;
  // With application profiles the tuple carries two more fields (dapp, sapp) before the direction.
  if (fields.length !== 7 && fields.length !== 9) return null;
  const [actionField = '', protocol, dport, destination, sport, source] = fields;
  const where = fields.at(-1)!;
  const route = actionField.startsWith('route:');
  const action = (route ? actionField.slice('route:'.length) : actionField).split('_')[0];
  const underscore = where.indexOf('_');
  const direction = underscore === -1 ? where : where.slice(0, underscore);
  // Route rules may name both interfaces (`in_eth0!out_eth1`); the model has one.
  const iface = underscore === -1 ? null : where.slice(underscore + 1);
  if (iface?.includes('!')) return null;
  const any = (address: string | undefined) =>
    address === '0.0.0.0/0' || address === '::/0' ? 'any' : address;
  const raw = {
    direction: route ? 'forward' : direction,
    action,
    protocol,
    destination_port: dport,
    source_port: sport,
    family,
    source: any(source),
    destination: any(destination),
    interface: iface,
    comment,
  };
  const validated = validateRule(raw, 'tuple', 'ufw');
  return validated.ok ? validated.rule : null;
}

/** ufw stores comments as hex of their UTF-8 bytes; undefined when that is not what we got. */
function decodeHex(hex: string): string | null | undefined {
  if (hex.length % 2 !== 0 || ![...hex].every((c) => '0123456789abcdefABCDEF'.includes(c))) return undefined;
  return hex === '' ? null : Buffer.from(hex, 'hex').toString('utf8');
}
