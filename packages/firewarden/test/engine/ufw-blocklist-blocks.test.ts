/**
 * @module Tests: the marked blocks on Debian's own ufw files (read from /etc/ufw of this machine):
 * the rules block goes right after before.rules' required lines and comes out leaving the file
 * byte for byte; a file without a filter table cannot take it; before.init's block goes after the
 * `#!` line, records a file firewarden made executable, and a script that is not a shell script
 * is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { initWithBlock } from '../../src/agent/ufw-blocklist-hook.js';
import { blockBegin, blocklistRulesOf, withBlocklistBlock } from '../../src/engine/ufw-blocklist-rules.js';
import { rules } from './support/rules.js';

const readable = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};
const beforeRules = readable('/etc/ufw/before.rules');
const beforeInit = readable('/etc/ufw/before.init');
const deny = rules(
  [{ direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '22', source: '@abuse' }],
  'ufw',
);

describe.skipIf(beforeRules === null || beforeInit === null)("marked blocks in ufw's files", () => {
  test('before.rules takes the block after its required lines and gives it back byte for byte', () => {
    const withBlock = withBlocklistBlock(beforeRules!, 'ipv4', deny)!;
    const lines = withBlock.split('\n');
    expect(lines[lines.indexOf('# End required lines') + 1]).toBe(blockBegin);
    expect(withBlock).toContain('-A ufw-before-input -j firewarden-blocklists');
    expect(blocklistRulesOf({ ipv4: withBlock, ipv6: '' }).rules).toEqual(
      deny.map((rule) => ({ ...rule, family: 'ipv4' })),
    );
    expect(withBlocklistBlock(withBlock, 'ipv4', [])).toBe(beforeRules);
    expect(withBlocklistBlock('# no table here\n', 'ipv4', deny)).toBeNull();
  });

  test("before.init takes the block after its #! line; firewarden's execute bit is recorded", () => {
    const hooked = initWithBlock(beforeInit, '/var/lib/fw agent', true, false)!;
    expect(hooked.split('\n')[1]).toBe(blockBegin);
    expect(hooked).toContain("'/var/lib/fw agent'/*.restore");
    expect(hooked).toContain('firewarden made this file executable');
    expect(initWithBlock(beforeInit, '/x', true, true)).not.toContain('firewarden made this file executable');
    expect(initWithBlock(hooked, '/var/lib/fw agent', false, true)).toBe(beforeInit);
    expect(initWithBlock(null, '/x', false, null)).toBeNull();
    expect(initWithBlock(initWithBlock(null, '/x', true, null), '/x', false, true)).toBeNull();
    expect(() => initWithBlock('#!/usr/bin/python3\nprint(1)\n', '/x', true, true)).toThrow(
      /not a shell script/,
    );
  });
});
