/**
 * @module Analysis of a rule list before it is applied, in first-match order: duplicates and
 * shadowed rules (a later rule no packet can reach) are warnings, allow/deny overlaps are high,
 * and a change that would cut the SSH port or the management port from the current client is
 * critical: the apply is refused unless the operator acknowledges it.
 */
import { firstMatch, type Packet, ruleCovers, rulesIntersect } from './match.js';
import type { Rule } from './rule.js';

export type Severity = 'warning' | 'high' | 'critical';
export type ConflictCode =
  | 'DUPLICATE_RULE'
  | 'RULE_SHADOWED'
  | 'ALLOW_DENY_OVERLAP'
  | 'SSH_LOCKOUT_RISK'
  | 'MANAGEMENT_PORT_LOCKOUT';

export interface Conflict {
  code: ConflictCode;
  severity: Severity;
  /** Indexes of the rules involved, later rule last. */
  rules: number[];
  message: string;
}

export interface LockoutContext {
  /** The address the operator's request came from. */
  client_address: string;
  ssh_port: number;
  management_port: number;
  /** What happens to a packet no rule of ours matches (the policy behind our chain). */
  default_incoming: 'allow' | 'deny';
}

const permits = (action: Rule['action'] | null, fallback: 'allow' | 'deny') =>
  (action ?? fallback) === 'allow' || action === 'limit';

export function analyzeRules(rules: readonly Rule[]): Conflict[] {
  const conflicts: Conflict[] = [];
  rules.forEach((later, j) => {
    for (let i = 0; i < j; i += 1) {
      const earlier = rules[i]!;
      if (sameRule(earlier, later)) {
        conflicts.push({
          code: 'DUPLICATE_RULE',
          severity: 'warning',
          rules: [i, j],
          message: `rule ${j} repeats rule ${i}`,
        });
        return;
      }
      if (ruleCovers(earlier, later)) {
        conflicts.push({
          code: 'RULE_SHADOWED',
          severity: 'warning',
          rules: [i, j],
          message: `rule ${j} is never reached: rule ${i} matches every packet it would (${earlier.action})`,
        });
        return;
      }
    }
    for (let i = 0; i < j; i += 1) {
      const earlier = rules[i]!;
      if (isAllow(earlier) !== isAllow(later) && rulesIntersect(earlier, later)) {
        conflicts.push({
          code: 'ALLOW_DENY_OVERLAP',
          severity: 'high',
          rules: [i, j],
          message: `rules ${i} (${earlier.action}) and ${j} (${later.action}) match some of the same packets; rule ${i} wins`,
        });
      }
    }
  });
  return conflicts;
}

/** Critical conflicts when `after` would block a port `before` lets the client reach. */
export function lockoutRisks(
  before: readonly Rule[],
  after: readonly Rule[],
  context: LockoutContext,
): Conflict[] {
  const checks: [ConflictCode, number, string][] = [
    ['SSH_LOCKOUT_RISK', context.ssh_port, 'SSH'],
    ['MANAGEMENT_PORT_LOCKOUT', context.management_port, 'the management port'],
  ];
  return checks.flatMap(([code, port, what]) => {
    const packet: Packet = {
      direction: 'in',
      protocol: 'tcp',
      source: context.client_address,
      destination_port: port,
    };
    const open = (rules: readonly Rule[]) => permits(firstMatch(rules, packet), context.default_incoming);
    if (!open(before) || open(after)) return [];
    return [
      {
        code,
        severity: 'critical' as const,
        rules: [],
        message: `the change blocks ${what} (tcp/${port}) from ${context.client_address}, the address of this session`,
      },
    ];
  });
}

function isAllow(rule: Rule): boolean {
  return rule.action === 'allow' || rule.action === 'limit';
}

function sameRule(a: Rule, b: Rule): boolean {
  return (
    a.direction === b.direction &&
    a.action === b.action &&
    a.protocol === b.protocol &&
    a.destination_port === b.destination_port &&
    a.source_port === b.source_port &&
    a.family === b.family &&
    a.source === b.source &&
    a.destination === b.destination &&
    a.interface === b.interface
  );
}
