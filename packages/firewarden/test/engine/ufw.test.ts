/**
 * @module Tests: ufw's `### tuple ###` lines (a real user.rules written by ufw 0.36.2) read into
 * rules; rules -> ufw argument arrays, run through the real ufw in a private network and mount
 * namespace over copies of /etc/ufw, read back from the tuples it wrote.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mergeFamilies } from '../../src/engine/iptables-parse.js';
import { ufwRuleArgs } from '../../src/engine/ufw-args.js';
import { readUfwTuples } from '../../src/engine/ufw-tuples.js';
import { exec, hostRules, namespaceSkipReason } from './support/netns.js';
import { rules as validRules } from './support/rules.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const rules = (input: object[]) => validRules(input, 'ufw');

describe('ufw tuples', () => {
  test('a user.rules written by ufw 0.36.2 reads into rules, comment decoded', () => {
    const v4 = readUfwTuples(fixture('ufw-0.36.2-user.rules'), 'ipv4');
    const v6 = readUfwTuples(fixture('ufw-0.36.2-user6.rules'), 'ipv6');
    expect(v4.unparsed).toEqual([]);
    expect(v6.unparsed).toEqual([]);
    expect(mergeFamilies(v4.rules, v6.rules)).toEqual(
      rules([
        { direction: 'in', action: 'limit', protocol: 'tcp', destination_port: '22' },
        {
          direction: 'in',
          action: 'allow',
          protocol: 'tcp',
          destination_port: '443',
          source: '10.0.0.0/8',
          interface: 'eth0',
          comment: 'web front',
        },
        {
          direction: 'in',
          action: 'deny',
          protocol: 'udp',
          destination_port: '1000-2000',
          source_port: '53',
          source: '2001:db8::/32',
        },
        { direction: 'out', action: 'reject', protocol: 'tcp', destination_port: '25' },
        { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '80,443' },
        { direction: 'in', action: 'allow', protocol: 'any', source: '192.168.1.5' },
      ]),
    );
  });

  test('odd tuples are reported, not guessed', () => {
    const text = [
      '### tuple ### allow tcp 22 0.0.0.0/0 any 0.0.0.0/0 in comment=zz',
      '### tuple ### allow tcp 22 0.0.0.0/0 any',
      '### tuple ### route:allow any any 0.0.0.0/0 any 0.0.0.0/0 in_eth0!out_eth1',
      '### tuple ### allow_log tcp 22 0.0.0.0/0 any 0.0.0.0/0 OpenSSH - in',
    ].join('\n');
    const read = readUfwTuples(text, 'ipv4');
    expect(read.unparsed).toHaveLength(3);
    expect(read.rules).toEqual(
      rules([{ direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', family: 'ipv4' }]),
    );
  });

  test('rules become one argv element per word', () => {
    const [inbound, forward] = rules([
      {
        direction: 'in',
        action: 'allow',
        protocol: 'tcp',
        destination_port: '1000-2000',
        source: '10.0.0.0/8',
        interface: 'eth0',
        comment: 'two words',
      },
      { direction: 'forward', action: 'deny', protocol: 'any', family: 'ipv6' },
    ]);
    expect(ufwRuleArgs(inbound!)).toEqual([
      'allow',
      'in',
      'on',
      'eth0',
      'proto',
      'tcp',
      'from',
      '10.0.0.0/8',
      'to',
      'any',
      'port',
      '1000:2000',
      'comment',
      'two words',
    ]);
    expect(ufwRuleArgs(forward!)).toEqual(['route', 'deny', 'from', '::/0', 'to', '::/0']);
  });
});

describe.skipIf(namespaceSkipReason !== null || !existsSync('/etc/ufw/user.rules'))(
  'ufw argument arrays through the real ufw',
  () => {
    let sandbox: string;
    let hostBefore: string;
    const hostFiles = () =>
      ['/etc/ufw/user.rules', '/etc/ufw/user6.rules'].map((f) => readFileSync(f, 'utf8')).join('');
    let hostFilesBefore: string;

    beforeAll(() => {
      sandbox = mkdtempSync(path.join(tmpdir(), 'fw-ufw-'));
      cpSync('/etc/ufw', path.join(sandbox, 'ufw'), { recursive: true });
      cpSync('/etc/default/ufw', path.join(sandbox, 'default-ufw'));
      hostFilesBefore = hostFiles();
    });
    beforeAll(async () => {
      hostBefore = await hostRules();
    });
    afterAll(async () => {
      rmSync(sandbox, { recursive: true, force: true });
      expect(hostFiles()).toBe(hostFilesBefore);
      expect(await hostRules()).toBe(hostBefore);
    });

    /** Runs `ufw <args>` in a fresh network namespace with the sandbox copies mounted over /etc. */
    const ufw = (args: string[]) =>
      exec([
        'unshare',
        '--net',
        '--mount',
        'sh',
        '-c',
        // A fresh namespace has no ufw chains: enable loads the sandbox's rules first.
        'mount --bind "$0" /etc/ufw && mount --bind "$1" /etc/default/ufw && shift && ufw --force enable >/dev/null && exec ufw "$@"',
        path.join(sandbox, 'ufw'),
        path.join(sandbox, 'default-ufw'),
        ...args,
      ]);

    test('what ufw writes for our arguments reads back as the same rules', async () => {
      expect((await ufw(['status'])).code).toBe(0);
      const wanted = rules([
        {
          direction: 'in',
          action: 'allow',
          protocol: 'tcp',
          destination_port: '22',
          comment: 'ssh – ünïcode',
        },
        {
          direction: 'in',
          action: 'deny',
          protocol: 'udp',
          destination_port: '1000-2000',
          source: '10.0.0.0/8',
          interface: 'eth0',
        },
        { direction: 'out', action: 'reject', protocol: 'tcp', destination_port: '25', family: 'ipv6' },
        { direction: 'in', action: 'limit', protocol: 'tcp', destination_port: '2222' },
        {
          direction: 'forward',
          action: 'allow',
          protocol: 'tcp',
          destination_port: '80,443',
          destination: '192.0.2.0/24',
        },
      ]);
      for (const rule of wanted) {
        const result = await ufw(ufwRuleArgs(rule));
        expect(result.stderr).toBe('');
        expect(result.stdout).toMatch(/^Rule added/);
        expect(result.code).toBe(0);
      }
      const read = (file: string, family: 'ipv4' | 'ipv6') =>
        readUfwTuples(readFileSync(path.join(sandbox, 'ufw', file), 'utf8'), family);
      const v4 = read('user.rules', 'ipv4');
      const v6 = read('user6.rules', 'ipv6');
      expect([...v4.unparsed, ...v6.unparsed]).toEqual([]);
      expect(mergeFamilies(v4.rules, v6.rules)).toEqual(wanted);
    });
  },
);
