/**
 * @module Tests: rule validation reports every problem with its field path, normalizes what it
 * accepts, and never throws on arbitrary input (property tests).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateRules } from '../../src/engine/validate.js';

describe('validateRules', () => {
  test('accepts the spec shape and fills in the canonical form', () => {
    const result = validateRules([
      { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' },
    ]);
    expect(result).toEqual({
      ok: true,
      rules: [
        {
          direction: 'in',
          action: 'allow',
          protocol: 'tcp',
          destination_port: '22',
          source_port: 'any',
          family: 'both',
          source: 'any',
          destination: 'any',
          interface: null,
          comment: null,
        },
      ],
    });
  });

  test('normalizes addresses, ranges and infers the family', () => {
    const result = validateRules([
      {
        direction: 'in',
        action: 'deny',
        protocol: 'udp',
        destination_port: '1000:2000',
        source: '10.1.2.3/8',
      },
      {
        direction: 'out',
        action: 'reject',
        protocol: 'tcp',
        destination_port: 443,
        destination: '2001:0db8:0:0:0:0:0:1/32',
      },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rules[0]).toMatchObject({
      destination_port: '1000-2000',
      source: '10.0.0.0/8',
      family: 'ipv4',
    });
    expect(result.rules[1]).toMatchObject({
      destination_port: '443',
      destination: '2001:db8::/32',
      family: 'ipv6',
    });
  });

  test('reports every error of every rule with its field path', () => {
    const result = validateRules([
      { direction: 'sideways', action: 'allow', protocol: 'tcp', destination_port: '70000' },
      { action: 'allow', protocol: 'icmp', destination_port: '22', source: '10.0.0.300', extra: 1 },
      {
        direction: 'in',
        action: 'allow',
        protocol: 'tcp',
        family: 'ipv6',
        source: '10.0.0.0/8',
        interface: 'x'.repeat(16),
      },
      { direction: 'in', action: 'deny', protocol: 'tcp', interface: 'lo', comment: 'say "hi"' },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.errors.map((e) => `${e.path}:${e.code}`).sort();
    expect(found).toEqual(
      [
        'rules.0.direction:invalid_value',
        'rules.0.destination_port:invalid_port',
        'rules.1.direction:required',
        'rules.1.destination_port:port_needs_protocol',
        'rules.1.source:invalid_address',
        'rules.1.extra:unknown_field',
        'rules.2.family:family_mismatch',
        'rules.2.interface:invalid_interface',
        'rules.3.interface:loopback_block',
        'rules.3.comment:invalid_comment',
      ].sort(),
    );
  });

  test('refuses limit on iptables, mixed families, too many ports and too many rules', () => {
    const rule = { direction: 'in', action: 'limit', protocol: 'tcp', destination_port: '22' };
    expect(validateRules([rule], { backend: 'ufw' }).ok).toBe(true);
    const iptables = validateRules([rule], { backend: 'iptables' });
    expect(iptables.ok || iptables.errors.map((e) => e.code)).toEqual(['unsupported_action']);
    const mixed = validateRules([{ ...rule, action: 'allow', source: '10.0.0.1', destination: '::1' }]);
    expect(mixed.ok || mixed.errors.map((e) => e.path)).toEqual(['rules.0.destination']);
    const ports = Array.from({ length: 16 }, (_, i) => String(i + 1)).join(',');
    const many = validateRules([{ ...rule, action: 'allow', destination_port: ports }]);
    expect(many.ok || many.errors.map((e) => e.code)).toEqual(['invalid_port']);
    const list = validateRules(Array(3).fill(rule), { maxRules: 2 });
    expect(list.ok || list.errors).toEqual([
      { path: 'rules', code: 'too_many', message: 'must hold at most 2 rules' },
    ]);
    expect(validateRules({ rules: [] }).ok).toBe(false);
    for (const comment of ['tab\there', 'c1 \u0085 control', 'x'.repeat(257)]) {
      const bad = validateRules([{ ...rule, action: 'allow', comment }]);
      expect(bad.ok || bad.errors.map((e) => e.code)).toEqual(['invalid_comment']);
    }
  });

  test('never throws and always explains a refusal, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 5 }), (input) => {
        const result = validateRules(input);
        if (!result.ok) {
          expect(result.errors.length).toBeGreaterThan(0);
          for (const error of result.errors) expect(error.path.startsWith('rules')).toBe(true);
        }
      }),
    );
  });

  test('a valid rule validates again to itself (canonical form is a fixed point)', () => {
    const ruleArb = fc.record({
      direction: fc.constantFrom('in', 'out', 'forward'),
      action: fc.constantFrom('allow', 'deny', 'reject'),
      protocol: fc.constantFrom('tcp', 'udp'),
      destination_port: fc.oneof(
        fc.integer({ min: 1, max: 65_535 }).map(String),
        fc
          .tuple(fc.integer({ min: 1, max: 65_535 }), fc.integer({ min: 1, max: 65_535 }))
          .map(([a, b]) => `${Math.min(a, b)}:${Math.max(a, b)}`),
      ),
      source: fc.oneof(
        fc.constant('any'),
        fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, p]) => `${ip}/${p}`),
        fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([ip, p]) => `${ip}/${p}`),
      ),
    });
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 5 }), (input) => {
        const first = validateRules(input);
        expect(first.ok).toBe(true);
        if (!first.ok) return;
        expect(validateRules(first.rules)).toEqual(first);
      }),
    );
  });
});
