/**
 * @module Tests: analysis finds duplicates, shadowed rules, allow/deny overlaps and lockout risks,
 * and its containment relation agrees with first-match evaluation of sampled packets.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { analyzeRules, lockoutRisks } from '../../src/engine/analyze.js';
import { firstMatch, ruleCovers } from '../../src/engine/match.js';
import { rules } from './support/rules.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };

describe('analyzeRules', () => {
  test('finds duplicates, shadowed rules and allow/deny overlaps', () => {
    const conflicts = analyzeRules(
      rules([
        ssh,
        { ...ssh, comment: 'same match, other comment' },
        { ...ssh, action: 'deny', source: '10.0.0.0/8' },
        {
          direction: 'in',
          action: 'deny',
          protocol: 'tcp',
          destination_port: '1000-2000',
          source: '192.168.0.0/16',
        },
        { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '1500-2500' },
        { direction: 'out', action: 'allow', protocol: 'tcp', destination_port: '22' },
      ]),
    );
    expect(conflicts.map((c) => [c.code, c.severity, c.rules])).toEqual([
      ['DUPLICATE_RULE', 'warning', [0, 1]],
      ['RULE_SHADOWED', 'warning', [0, 2]],
      ['ALLOW_DENY_OVERLAP', 'high', [3, 4]],
    ]);
  });

  test('different directions, families or disjoint ports never conflict', () => {
    const conflicts = analyzeRules(
      rules([
        { ...ssh, source: '10.0.0.0/8' },
        { ...ssh, action: 'deny', source: '2001:db8::/32' },
        { ...ssh, action: 'deny', destination_port: '23' },
        { ...ssh, direction: 'out', action: 'deny' },
      ]),
    );
    expect(conflicts).toEqual([]);
  });

  test('a rule that covers another decides every packet the covered one would match', () => {
    const ruleArb = fc
      .record({
        direction: fc.constant('in'),
        action: fc.constantFrom('allow', 'deny'),
        protocol: fc.constantFrom('any', 'tcp', 'udp'),
        source: fc.oneof(
          fc.constant('any'),
          fc.integer({ min: 0, max: 8 }).map((p) => `10.0.0.0/${p + 8}`),
        ),
        destination_port: fc.oneof(
          fc.constant('any'),
          fc
            .tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 20 }))
            .map(([a, n]) => `${a}-${a + n}`),
        ),
      })
      .map((r) => (r.protocol === 'any' ? { ...r, destination_port: 'any' } : r));
    fc.assert(
      fc.property(
        ruleArb,
        ruleArb,
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: 255 }),
        (a, b, port, octet) => {
          const [outer, inner] = rules([a, b]);
          if (!ruleCovers(outer!, inner!)) return;
          const packet = {
            direction: 'in' as const,
            protocol: 'tcp' as const,
            source: `10.0.${octet}.1`,
            destination_port: port,
          };
          if (firstMatch([inner!], packet) !== null) expect(firstMatch([outer!], packet)).toBe(outer!.action);
        },
      ),
    );
  });
});

describe('lockoutRisks', () => {
  const context = {
    client_address: '192.0.2.10',
    ssh_port: 22,
    management_port: 7443,
    default_incoming: 'deny' as const,
  };
  const before = rules([ssh, { ...ssh, destination_port: '7443' }]);

  test('removing the SSH allow or denying the client is critical', () => {
    const after = rules([{ ...ssh, destination_port: '7443' }]);
    expect(lockoutRisks(before, after, context).map((c) => [c.code, c.severity])).toEqual([
      ['SSH_LOCKOUT_RISK', 'critical'],
    ]);
    const denyClient = rules([
      { direction: 'in', action: 'deny', protocol: 'any', source: '192.0.2.0/24' },
      ...before,
    ]);
    expect(lockoutRisks(before, denyClient, context).map((c) => c.code)).toEqual([
      'SSH_LOCKOUT_RISK',
      'MANAGEMENT_PORT_LOCKOUT',
    ]);
  });

  test('a deny for another network, or a port that was already closed, is no risk', () => {
    const other = rules([
      { direction: 'in', action: 'deny', protocol: 'any', source: '198.51.100.0/24' },
      ...before,
    ]);
    expect(lockoutRisks(before, other, context)).toEqual([]);
    expect(lockoutRisks([], [], context)).toEqual([]);
    expect(lockoutRisks([], [], { ...context, default_incoming: 'allow' })).toEqual([]);
    const denySsh = rules([{ ...ssh, action: 'deny' }]);
    expect(lockoutRisks([], denySsh, { ...context, default_incoming: 'allow' }).map((c) => c.code)).toEqual([
      'SSH_LOCKOUT_RISK',
    ]);
  });
});
