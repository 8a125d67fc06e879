/**
 * @module Tests: the indexed analysis finds exactly what comparing every pair of rules finds (the
 * pairwise analysis it replaced is kept here as the oracle), on random rule lists dense in
 * overlaps; and it compares a number of pairs that grows with the rules, not with their square,
 * on the shapes of 10,000 distinct rules a client can send (the quadratic one compared ~50 million
 * pairs, 52 s on the event loop). Run in turns, it lets the event loop serve others between steps.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type AnalysisProbe,
  analyzeRuleList,
  type Conflict,
  maxReportedOverlaps,
  RuleAnalysis,
} from '../../src/engine/analyze.js';
import { ruleCovers, rulesIntersect } from '../../src/engine/match.js';
import type { Rule } from '../../src/engine/rule.js';
import { finishInTurns } from '../../src/engine/stepped-work.js';
import { rules } from './support/rules.js';

/** The analysis as it was before the index: every later rule against every earlier one. */
function pairwiseAnalysis(list: readonly Rule[]): Conflict[] {
  const isAllow = (rule: Rule) => rule.action === 'allow' || rule.action === 'limit';
  const sameMatch = (a: Rule, b: Rule) =>
    (
      ['direction', 'action', 'protocol', 'destination_port', 'source_port', 'family', 'source'] as const
    ).every((field) => a[field] === b[field]) &&
    a.destination === b.destination &&
    a.interface === b.interface;
  const conflicts: Conflict[] = [];
  list.forEach((later, j) => {
    for (let i = 0; i < j; i += 1) {
      const earlier = list[i]!;
      if (sameMatch(earlier, later)) {
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
      const earlier = list[i]!;
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

/** Few distinct values per field, so random lists are full of covers, duplicates and overlaps. */
const portArb = fc.oneof(
  fc.constant('any'),
  fc.integer({ min: 20, max: 30 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 })).map(([a, n]) => `${a}-${a + n}`),
  fc
    .uniqueArray(fc.integer({ min: 18, max: 34 }), { minLength: 2, maxLength: 4 })
    .map((ports) => ports.join(',')),
);
const v4Arb = fc.oneof(
  fc.constant('any'),
  fc
    .constantFrom(0, 8, 16, 24, 25, 32)
    .chain((prefix) =>
      fc.integer({ min: 0, max: 3 }).map((octet) => `10.0.${octet}.${octet * 64}/${prefix}`),
    ),
);
const v6Arb = fc.oneof(
  fc.constant('any'),
  fc
    .constantFrom(0, 32, 48, 64, 127, 128)
    .chain((prefix) =>
      fc.integer({ min: 0, max: 3 }).map((group) => `2001:db8:${group}::${group}/${prefix}`),
    ),
);
const ruleArb = fc
  .record({
    direction: fc.constantFrom('in', 'in', 'in', 'out'),
    action: fc.constantFrom('allow', 'deny', 'reject', 'limit'),
    protocol: fc.constantFrom('any', 'tcp', 'udp', 'icmp'),
    destination_port: portArb,
    source_port: fc.oneof(fc.constant('any'), fc.constant('any'), portArb),
    family: fc.constantFrom('ipv4', 'ipv6', 'both'),
    interface: fc.constantFrom(null, null, 'eth0', 'eth1'),
    v4: fc.tuple(v4Arb, v4Arb),
    v6: fc.tuple(v6Arb, v6Arb),
    comment: fc.constantFrom(null, 'a'),
  })
  .map(({ v4, v6, ...rule }) => {
    const [source, destination] = rule.family === 'ipv6' ? v6 : rule.family === 'ipv4' ? v4 : ['any', 'any'];
    const ported = rule.protocol === 'tcp' || rule.protocol === 'udp';
    return {
      ...rule,
      action: rule.action === 'limit' && rule.direction !== 'in' ? 'allow' : rule.action,
      source,
      destination,
      destination_port: ported ? rule.destination_port : 'any',
      source_port: ported ? rule.source_port : 'any',
    };
  });

describe('indexed analysis', () => {
  test('finds exactly what comparing every pair finds, in the same order', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 60 }), (input) => {
        const list = rules(input);
        const analysis = analyzeRuleList(list);
        expect(analysis.conflicts).toEqual(pairwiseAnalysis(list));
        expect(analysis.overlaps_truncated).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  const shapes: [string, (i: number) => object][] = [
    [
      'distinct ports',
      (i) => ({
        direction: 'in',
        action: i % 3 ? 'allow' : 'deny',
        protocol: 'tcp',
        destination_port: String(1 + i),
      }),
    ],
    [
      'distinct sources, any port',
      (i) => ({
        direction: 'in',
        action: i % 3 ? 'allow' : 'deny',
        protocol: 'any',
        source: `10.${i >> 8}.${i & 255}.0/24`,
      }),
    ],
    [
      'distinct destinations over both families',
      (i) => ({
        direction: 'out',
        action: i % 2 ? 'allow' : 'reject',
        protocol: 'udp',
        destination: i % 2 ? `2001:db8::${i.toString(16)}/128` : `192.168.${i >> 8}.${i & 255}`,
      }),
    ],
    [
      'distinct port ranges',
      (i) => ({
        direction: 'in',
        action: i % 3 ? 'allow' : 'deny',
        protocol: 'udp',
        destination_port: `${1 + 6 * i}-${5 + 6 * i}`,
      }),
    ],
    [
      'distinct interfaces',
      (i) => ({
        direction: 'forward',
        action: i % 3 ? 'allow' : 'deny',
        protocol: 'any',
        interface: `veth${i}`,
      }),
    ],
  ];

  test.each(shapes)('10,000 rules of %s cost a linear number of comparisons', (_, make) => {
    const list = rules(Array.from({ length: 10_000 }, (_, i) => make(i)));
    const probe: AnalysisProbe = { comparisons: 0 };
    const analysis = analyzeRuleList(list, probe);
    expect(analysis.conflicts).toEqual([]);
    // Every pair would be 49,995,000; a constant number per rule is what the index allows.
    expect(probe.comparisons).toBeLessThanOrEqual(4 * list.length);
  });

  test('a list whose overlaps grow with its square lists the first ones and says it is truncated', () => {
    // 200 allows of one source each, then 200 denies of one port each: every deny meets every allow.
    const list = rules([
      ...Array.from({ length: 200 }, (_, i) => ({
        direction: 'in',
        action: 'allow',
        protocol: 'any',
        source: `10.0.${i}.1`,
      })),
      ...Array.from({ length: 200 }, (_, i) => ({
        direction: 'in',
        action: 'deny',
        protocol: 'tcp',
        destination_port: String(1000 + i),
      })),
    ]);
    expect(maxReportedOverlaps).toBeLessThan(200 * 200);
    const analysis = analyzeRuleList(list);
    expect(analysis.overlaps_truncated).toBe(true);
    expect(analysis.conflicts).toEqual(pairwiseAnalysis(list).slice(0, maxReportedOverlaps));
  });
});

test('the analysis run in turns lets the event loop serve others between its steps', async () => {
  const list = rules(
    Array.from({ length: 2_000 }, (_, i) => ({
      direction: 'in',
      action: 'allow',
      protocol: 'tcp',
      destination_port: String(1 + i),
    })),
  );
  const order: string[] = [];
  const analysed = finishInTurns(new RuleAnalysis(list), 100).then(() => order.push('analysis'));
  setImmediate(() => order.push('other work'));
  await analysed;
  expect(order).toEqual(['other work', 'analysis']);
});

test('a turn is bounded by its work, also when every rule has thousands of candidates', () => {
  // Wide overlapping ranges: each rule's ports hold the first port of every earlier rule.
  const list = rules(
    Array.from({ length: 2_000 }, (_, i) => ({
      direction: 'in',
      action: 'allow',
      protocol: 'tcp',
      destination_port: `${1 + i}-${30_000 + i}`,
    })),
  );
  const probe: AnalysisProbe = { comparisons: 0 };
  const analysis = new RuleAnalysis(list, probe);
  const budget = 1_000;
  const perTurn: number[] = [];
  for (let done = false; !done; ) {
    const before = probe.comparisons;
    done = analysis.advance(budget);
    perTurn.push(probe.comparisons - before);
  }
  // A turn stops once its budget is spent; only the rule it is in may run past it.
  expect(Math.max(...perTurn)).toBeLessThanOrEqual(budget + list.length);
  expect(perTurn.reduce((a, b) => a + b)).toBeGreaterThan(100 * budget);
  // No range holds another and all allow: nothing to report.
  expect(analysis.result().conflicts).toEqual([]);
});
