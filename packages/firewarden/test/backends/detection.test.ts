/**
 * @module Tests: the pure parts of backend detection: the iptables variant from `iptables -V`,
 * the tables of `nft -j list tables` (garbage in, nothing out), ufw's switch in ufw.conf.
 */
import { describe, expect, test } from 'vitest';
import { variantOfVersion } from '../../src/agent/iptables-variant.js';
import { nftTables } from '../../src/agent/manager-conflicts.js';
import { ufwChainsLoaded, ufwEnabledIn } from '../../src/firewall/ufw-files.js';

describe('backend detection', () => {
  test('the variant is read from the version line', () => {
    expect(variantOfVersion('iptables v1.8.9 (nf_tables)')).toBe('nf_tables');
    expect(variantOfVersion('iptables v1.8.9 (legacy)')).toBe('legacy');
    expect(variantOfVersion('iptables v1.6.1')).toBeNull();
  });

  test('nft tables are read from its JSON; anything else reads as none', () => {
    const json = JSON.stringify({
      nftables: [
        { metainfo: { version: '1.0.6' } },
        { table: { family: 'ip', name: 'filter', handle: 1 } },
        { table: { family: 'inet', name: 'firewalld', handle: 2 } },
        { table: { family: 7, name: 'odd' } },
      ],
    });
    expect(nftTables(json)).toEqual([
      { family: 'ip', name: 'filter' },
      { family: 'inet', name: 'firewalld' },
    ]);
    for (const garbage of ['', 'not json', '{"nftables": {}}', 'null', '[1]'])
      expect(nftTables(garbage)).toEqual([]);
  });

  test('ufw is switched on by ENABLED=yes only, and its chains are seen in iptables-save', () => {
    expect(ufwEnabledIn('# comment\nENABLED=yes\nLOGLEVEL=low\n')).toBe(true);
    expect(ufwEnabledIn('ENABLED=no\n')).toBe(false);
    expect(ufwEnabledIn('#ENABLED=yes\n')).toBe(false);
    expect(ufwChainsLoaded('*filter\n:INPUT DROP [0:0]\n:ufw-user-input - [0:0]\nCOMMIT\n')).toBe(true);
    expect(
      ufwChainsLoaded('*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -m comment --comment ufw-user-input\n'),
    ).toBe(false);
  });
});
