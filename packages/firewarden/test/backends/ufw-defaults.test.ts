/**
 * @module Tests: reading `IPV6=` from ufw's defaults file (`/etc/default/ufw`), which decides
 * whether the ufw backend's read-back expects IPv6 rules at all.
 */
import { expect, test } from 'vitest';
import { ipv6Disabled } from '../../src/agent/ufw-backend.js';

test('IPV6=no in any spelling ufw accepts turns IPv6 off', () => {
  for (const line of ['IPV6=no', 'IPV6="no"', "IPV6='no'", '  IPV6 = NO  ', 'IPV6=No'])
    expect(ipv6Disabled(`# defaults\nDEFAULT_INPUT_POLICY="DROP"\n${line}\nMANAGE_BUILTINS=no\n`), line).toBe(
      true,
    );
});

test('IPV6=yes, a comment, another key or no line at all leaves IPv6 on', () => {
  for (const text of ['IPV6=yes', '#IPV6=no', 'MANAGE_BUILTINS=no', 'IPV6_PRIVACY=no', '', 'IPV6=no-thanks'])
    expect(ipv6Disabled(text), text).toBe(false);
});
