/**
 * @module Test support: rules another tool owns in the sandbox's kernel (a nat rule, a chain of
 * its own jumped to from INPUT, an accept in INPUT, an IPv6 drop), and one more it adds later, so
 * a test can prove ours never rewrite theirs.
 */
import { expect } from 'vitest';
import type { Sandbox } from './sandbox.js';

const foreignRules = [
  ['iptables', '-t', 'nat', '-A', 'POSTROUTING', '-s', '10.9.0.0/16', '-j', 'MASQUERADE'],
  ['iptables', '-N', 'OTHER-TOOL'],
  ['iptables', '-A', 'OTHER-TOOL', '-s', '198.51.100.7', '-j', 'DROP'],
  ['iptables', '-A', 'INPUT', '-j', 'OTHER-TOOL'],
  ['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '9999', '-j', 'ACCEPT'],
  ['ip6tables', '-A', 'OUTPUT', '-d', '2001:db8::1', '-j', 'DROP'],
];

export async function addForeignRules(sandbox: Sandbox): Promise<void> {
  for (const argv of foreignRules) expect((await sandbox.exec(argv)).code).toBe(0);
}

/**
 * The other tool appends to its chain; returns what `before` (a `sandboxSave`) looks like with
 * that rule, which is what a rollback must leave.
 */
export async function addLaterForeignRule(sandbox: Sandbox, before: string): Promise<string> {
  expect((await sandbox.exec(['iptables', '-A', 'OTHER-TOOL', '-s', '203.0.113.5', '-j', 'DROP'])).code).toBe(
    0,
  );
  const existing = '-A OTHER-TOOL -s 198.51.100.7/32 -j DROP\n';
  expect(before).toContain(existing);
  return before.replace(existing, `${existing}-A OTHER-TOOL -s 203.0.113.5/32 -j DROP\n`);
}
