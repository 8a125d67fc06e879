/**
 * @module Rule -> ufw argument arrays (one argv element per word, never one string for the whole
 * rule as the original tool did). A rule restricted to one family without any address names the
 * family's "any" network, which is how ufw limits a rule to IPv4 or IPv6.
 */
import type { Rule } from './rule.js';

export function ufwRuleArgs(rule: Rule): string[] {
  // ufw's route rules take a direction only together with an interface.
  const args: string[] =
    rule.direction === 'forward' ? ['route', rule.action] : [rule.action, rule.direction];
  if (rule.interface !== null)
    args.push(...(rule.direction === 'forward' ? ['in'] : []), 'on', rule.interface);
  if (rule.protocol !== 'any') args.push('proto', rule.protocol);
  const unaddressed = rule.source === 'any' && rule.destination === 'any';
  const familyAny =
    !unaddressed || rule.family === 'both' ? 'any' : rule.family === 'ipv4' ? '0.0.0.0/0' : '::/0';
  const address = (text: string) => (text === 'any' ? familyAny : text);
  const port = (text: string) => (text === 'any' ? [] : ['port', text.replaceAll('-', ':')]);
  args.push('from', address(rule.source), ...port(rule.source_port));
  args.push('to', address(rule.destination), ...port(rule.destination_port));
  if (rule.comment !== null) args.push('comment', rule.comment);
  return args;
}

export function ufwDeleteArgs(rule: Rule): string[] {
  return ['delete', ...ufwRuleArgs(rule)];
}
