/**
 * @module Tests: rules -> iptables-restore input -> (the real iptables in a network namespace) ->
 * iptables-save -> rules gives the same rules back; foreign rules are left alone; the host's
 * rules are unchanged by the suite.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Family } from '../../src/engine/addresses.js';
import { mergeFamilies, parseIptablesSave, readOwnedRules } from '../../src/engine/iptables-parse.js';
import { appliesToFamily, renderOwnedTable } from '../../src/engine/iptables-render.js';
import type { Rule } from '../../src/engine/rule.js';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from './support/netns.js';
import { rules as validRules } from './support/rules.js';

const rules = (input: object[]) => validRules(input, 'iptables');

const sample = rules([
  { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', comment: 'ssh from anywhere' },
  {
    direction: 'in',
    action: 'deny',
    protocol: 'udp',
    destination_port: '1000-2000',
    source: '10.0.0.0/8',
    interface: 'eth0',
  },
  {
    direction: 'in',
    action: 'reject',
    protocol: 'tcp',
    destination_port: '80,443,8000-8080',
    source: '2001:db8::/32',
  },
  { direction: 'out', action: 'allow', protocol: 'udp', source_port: '53', destination: '192.0.2.1' },
  { direction: 'forward', action: 'deny', protocol: 'icmp', interface: 'br0', family: 'ipv6' },
  { direction: 'in', action: 'allow', protocol: 'any', comment: 'single' },
  { direction: 'out', action: 'reject', protocol: 'tcp', source_port: '1,2', destination_port: '3-4' },
]);

/** iptables-save lists chain by chain: the expected order is in, out, forward, each kept stable. */
const byDirection = (list: Rule[]) =>
  ['in', 'out', 'forward'].flatMap((d) => list.filter((r) => r.direction === d));
const perFamily = (list: Rule[], family: Family) =>
  byDirection(list.filter((rule) => appliesToFamily(rule, family)));

const ruleArb = fc
  .record({
    direction: fc.constantFrom('in', 'out', 'forward'),
    action: fc.constantFrom('allow', 'deny', 'reject'),
    protocol: fc.constantFrom('any', 'tcp', 'udp', 'icmp'),
    destination_port: fc.constantFrom('any', '22', '80,443', '1000-2000', '1-65535'),
    source: fc.constantFrom('any', '10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '::1'),
    interface: fc.constantFrom(null, 'eth0', 'veth-a.1'),
    comment: fc.constantFrom(null, 'x', 'two words', 'ünïcode – ok'),
  })
  .map((r) => (r.protocol === 'tcp' || r.protocol === 'udp' ? r : { ...r, destination_port: 'any' }));

describe('iptables translation (pure)', () => {
  test('render then parse gives the rules back, per family', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 8 }), (input) => {
        const list = rules(input);
        for (const family of ['ipv4', 'ipv6'] as const) {
          const restore = renderOwnedTable(list, family, '');
          const read = readOwnedRules(restore.replaceAll(/^-I (\w+) 1 /gm, '-A $1 '), family);
          expect(read.unparsed).toEqual([]);
          expect(read.rules.map((r) => ({ ...r, family: null }))).toEqual(
            perFamily(list, family).map((r) => ({ ...r, family: null })),
          );
        }
      }),
    );
  });

  test('lines the model cannot express are reported, not guessed', () => {
    const save = [
      '*filter',
      ':FIREWARDEN-INPUT - [0:0]',
      '-A FIREWARDEN-INPUT -p tcp -m tcp ! --dport 22 -j ACCEPT',
      '-A FIREWARDEN-INPUT -m conntrack --ctstate ESTABLISHED -j ACCEPT',
      '-A FIREWARDEN-INPUT -p tcp -m tcp --dport 22 -j LOG',
      '-A FIREWARDEN-INPUT -p tcp -m tcp --dport 22 -j ACCEPT',
      '-A INPUT -p tcp -j DROP',
      'COMMIT',
    ].join('\n');
    const read = readOwnedRules(save, 'ipv4');
    expect(read.rules.map((r) => r.destination_port)).toEqual(['22']);
    expect(read.unparsed).toHaveLength(3);
  });

  test('the jump is added only where it is missing', () => {
    const current = '*filter\n:INPUT DROP [0:0]\n-A INPUT -j FIREWARDEN-INPUT\n-A INPUT -j ACCEPT\nCOMMIT\n';
    const restore = renderOwnedTable([], 'ipv4', current);
    expect(restore).not.toContain('-I INPUT');
    expect(restore).toContain('-I OUTPUT 1 -j FIREWARDEN-OUTPUT');
    expect(parseIptablesSave(current)[0]!.chains).toEqual([{ name: 'INPUT', policy: 'DROP' }]);
  });
});

describe.skipIf(namespaceSkipReason !== null)('iptables translation against the real iptables', () => {
  let ns: Namespace;
  let hostBefore: string;
  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
  });
  afterAll(async () => {
    await ns?.remove();
    expect(await hostRules()).toBe(hostBefore);
  });

  const save = async (family: Family) => {
    const result = await ns.exec([family === 'ipv4' ? 'iptables-save' : 'ip6tables-save']);
    expect(result.code).toBe(0);
    return result.stdout;
  };
  const restore = async (family: Family, input: string, flags: string[] = ['--noflush']) =>
    ns.exec([family === 'ipv4' ? 'iptables-restore' : 'ip6tables-restore', ...flags], input);

  test('applied rules read back from iptables-save equal what was applied, foreign rules untouched', async () => {
    for (const family of ['ipv4', 'ipv6'] as const) {
      const tool = family === 'ipv4' ? 'iptables' : 'ip6tables';
      expect((await ns.exec([tool, '-A', 'INPUT', '-p', 'tcp', '--dport', '9', '-j', 'DROP'])).code).toBe(0);
      for (const _round of [1, 2]) {
        const input = renderOwnedTable(sample, family, await save(family));
        expect((await restore(family, input, ['--noflush', '--test'])).code).toBe(0);
        const applied = await restore(family, input);
        expect(applied.stderr).toBe('');
        expect(applied.code).toBe(0);
        const text = await save(family);
        const read = readOwnedRules(text, family);
        expect(read.unparsed).toEqual([]);
        expect(read.rules).toEqual(perFamily(sample, family).map((r) => ({ ...r, family })));
        const lines = text.split('\n');
        // One jump per built-in chain, however often we apply; the foreign rule stays after it.
        expect(lines.filter((l) => l === '-A INPUT -j FIREWARDEN-INPUT')).toHaveLength(1);
        expect(lines.filter((l) => l.startsWith('-A INPUT -p tcp -m tcp --dport 9 -j DROP'))).toHaveLength(1);
      }
    }
    const both = mergeFamilies(
      readOwnedRules(await save('ipv4'), 'ipv4').rules,
      readOwnedRules(await save('ipv6'), 'ipv6').rules,
    );
    expect(both).toEqual(byDirection(sample));
  });

  test('a rule iptables refuses fails --test and changes nothing', async () => {
    const before = await save('ipv4');
    const bad = '*filter\n-A FIREWARDEN-INPUT -p tcp -m tcp --dport 99999 -j ACCEPT\nCOMMIT\n';
    const result = await restore('ipv4', bad, ['--noflush', '--test']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('line: 2');
    expect((await save('ipv4')).replaceAll(/^#.*$/gm, '')).toBe(before.replaceAll(/^#.*$/gm, ''));
  });
});
