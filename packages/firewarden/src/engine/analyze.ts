/**
 * @module Analysis of a rule list before it is applied, in first-match order: duplicates and
 * shadowed rules (a later rule no packet can reach) are warnings, allow/deny overlaps are high,
 * and a change that would cut the SSH port or the management port from the current client is
 * critical: the apply is refused unless the operator acknowledges it.
 */
import {
  firstMatch,
  matchCovers,
  matchesIntersect,
  type Packet,
  type RuleMatch,
  ruleMatch,
} from './match.js';
import type { Rule } from './rule.js';
import { RuleIndex } from './rule-index.js';
import { finishNow, type SteppedWork } from './stepped-work.js';

export type Severity = 'warning' | 'high' | 'critical';
type ConflictCode =
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

interface LockoutContext {
  /** The address the operator's request came from. */
  client_address: string;
  ssh_port: number;
  management_port: number;
  /** What happens to a packet no rule of ours matches (the policy behind our chain). */
  default_incoming: 'allow' | 'deny';
  /** The blocklists holding the client's address before and after the change (none by default). */
  client_lists?: { before: ReadonlySet<string>; after: ReadonlySet<string> };
}

const permits = (action: Rule['action'] | null, fallback: 'allow' | 'deny') =>
  (action ?? fallback) === 'allow' || action === 'limit';

/** What looking up a rule's candidates in the index costs, in steps (candidates looked at). */
const stepsPerRule = 10;

/** Allow/deny overlaps reported at most: their number can grow with the square of the rules. */
export const maxReportedOverlaps = 10_000;

interface Analysis {
  conflicts: Conflict[];
  /** True when more than `maxReportedOverlaps` allow/deny overlaps exist (the first ones are listed). */
  overlaps_truncated: boolean;
}

export interface AnalysisProbe {
  /** Incremented for every pair of rules compared (the work the index saves). */
  comparisons: number;
}

export function analyzeRules(rules: readonly Rule[]): Conflict[] {
  return finishNow(new RuleAnalysis(rules)).conflicts;
}

/** The analysis with its counts, at once (the server steps through it with `finishInTurns`). */
export function analyzeRuleList(rules: readonly Rule[], probe?: AnalysisProbe): Analysis {
  return finishNow(new RuleAnalysis(rules, probe));
}

/**
 * For each rule, in order: the first earlier rule that covers it (a duplicate when it is the same
 * rule) or, when none does, every earlier rule of the other kind (allow/deny) sharing a packet
 * with it. Only the candidates the index names are compared; the findings are those of comparing
 * every pair. A step is one candidate looked at, and a rule's own index lookups count as
 * `stepsPerRule`: a turn of a stepped run is bounded by its work, even on lists built so that some
 * rules have thousands of candidates.
 */
export class RuleAnalysis implements SteppedWork<Analysis> {
  private readonly matches: RuleMatch[];
  private readonly index: RuleIndex;
  private readonly conflicts: Conflict[] = [];
  private next = 0;
  private steps = 0;
  private overlaps = 0;
  private truncated = false;
  /** `seen[i] === stamp`: rule i was already a candidate of the current search. */
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(
    private readonly rules: readonly Rule[],
    private readonly probe?: AnalysisProbe,
  ) {
    this.matches = rules.map(ruleMatch);
    this.index = new RuleIndex(this.matches);
    this.seen = new Int32Array(rules.length).fill(-1);
  }

  advance(steps: number): boolean {
    const until = this.steps + steps;
    while (this.next < this.rules.length && this.steps < until) {
      this.steps += stepsPerRule;
      this.analyze(this.next);
      this.next += 1;
    }
    return this.next === this.rules.length;
  }

  result(): Analysis {
    return { conflicts: this.conflicts, overlaps_truncated: this.truncated };
  }

  private compared<T>(result: T): T {
    if (this.probe) this.probe.comparisons += 1;
    return result;
  }

  private analyze(j: number): void {
    const { rules, matches } = this;
    const later = rules[j]!;
    const match = matches[j]!;
    let first = j;
    for (const chunk of this.index.coverers(match)) {
      this.steps += chunk.to - chunk.from;
      for (let k = chunk.from; k < chunk.to; k += 1) {
        const i = chunk.indexes[k]!;
        if (i >= first) {
          if (chunk.ordered) break;
          continue;
        }
        if (this.compared(matchCovers(matches[i]!, match))) {
          first = i;
          if (chunk.ordered) break;
        }
      }
    }
    if (first < j) {
      const earlier = rules[first]!;
      this.conflicts.push(
        sameRule(earlier, later)
          ? {
              code: 'DUPLICATE_RULE',
              severity: 'warning',
              rules: [first, j],
              message: `rule ${j} repeats rule ${first}`,
            }
          : {
              code: 'RULE_SHADOWED',
              severity: 'warning',
              rules: [first, j],
              message: `rule ${j} is never reached: rule ${first} matches every packet it would (${earlier.action})`,
            },
      );
      return;
    }
    if (this.truncated) return;
    this.stamp += 1;
    const meeting: number[] = [];
    for (const chunk of this.index.meeting(match)) {
      this.steps += chunk.to - chunk.from;
      for (let k = chunk.from; k < chunk.to; k += 1) {
        const i = chunk.indexes[k]!;
        if (i >= j) {
          if (chunk.ordered) break;
          continue;
        }
        if (this.seen[i] === this.stamp) continue;
        this.seen[i] = this.stamp;
        if (isAllow(rules[i]!) !== isAllow(later) && this.compared(matchesIntersect(matches[i]!, match)))
          meeting.push(i);
      }
    }
    meeting.sort((a, b) => a - b);
    for (const i of meeting) {
      if (this.overlaps === maxReportedOverlaps) {
        this.truncated = true;
        return;
      }
      this.overlaps += 1;
      const earlier = rules[i]!;
      this.conflicts.push({
        code: 'ALLOW_DENY_OVERLAP',
        severity: 'high',
        rules: [i, j],
        message: `rules ${i} (${earlier.action}) and ${j} (${later.action}) match some of the same packets; rule ${i} wins`,
      });
    }
  }
}

/** Whether a rule list (ours) lets the packet through, all else in the ruleset considered. */
export type Opens = (rules: readonly Rule[], packet: Packet) => boolean;

/**
 * Critical conflicts when `after` would block a port `before` lets the client reach. `opens`
 * evaluates the whole ruleset around our rules (`ruleset-verdict.ts`); by default only our rules
 * count, then `default_incoming`.
 */
export function lockoutRisks(
  before: readonly Rule[],
  after: readonly Rule[],
  context: LockoutContext,
  opens: Opens = (rules, packet) => permits(firstMatch(rules, packet), context.default_incoming),
): Conflict[] {
  const checks: [ConflictCode, number, string][] = [
    ['SSH_LOCKOUT_RISK', context.ssh_port, 'SSH'],
    ['MANAGEMENT_PORT_LOCKOUT', context.management_port, 'the management port'],
  ];
  return checks.flatMap(([code, port, what]) => {
    const packet = (lists: ReadonlySet<string> | undefined): Packet => ({
      direction: 'in',
      protocol: 'tcp',
      source: context.client_address,
      destination_port: port,
      source_lists: lists,
    });
    const lists = context.client_lists;
    if (!opens(before, packet(lists?.before)) || opens(after, packet(lists?.after))) return [];
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
