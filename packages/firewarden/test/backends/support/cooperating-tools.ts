/**
 * @module Test support: what Docker, fail2ban, CrowdSec, libvirt, Kubernetes and Tailscale leave
 * in a kernel, put into a sandbox with the real tools: Docker's filter and nat chains (and the
 * DNAT of a published port), fail2ban's iptables chain and its `inet f2b-table`, CrowdSec's
 * `ip crowdsec` table, libvirt's, kube-proxy's and Tailscale's chains.
 */
import { expect } from 'vitest';
import type { Sandbox } from './sandbox.js';

const dockerRules = [
  ['iptables', '-N', 'DOCKER'],
  ['iptables', '-N', 'DOCKER-USER'],
  ['iptables', '-N', 'DOCKER-ISOLATION-STAGE-1'],
  ['iptables', '-A', 'DOCKER-USER', '-j', 'RETURN'],
  ['iptables', '-A', 'FORWARD', '-j', 'DOCKER-USER'],
  ['iptables', '-A', 'FORWARD', '-j', 'DOCKER-ISOLATION-STAGE-1'],
  ['iptables', '-A', 'DOCKER', '-d', '172.17.0.2/32', '-p', 'tcp', '--dport', '80', '-j', 'ACCEPT'],
  ['iptables', '-t', 'nat', '-N', 'DOCKER'],
  ['iptables', '-t', 'nat', '-A', 'PREROUTING', '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', 'DOCKER'],
  [
    'iptables',
    '-t',
    'nat',
    '-A',
    'DOCKER',
    '-p',
    'tcp',
    '--dport',
    '8080',
    '-j',
    'DNAT',
    '--to-destination',
    '172.17.0.2:80',
  ],
];

const otherChains = [
  ['iptables', '-N', 'f2b-sshd'],
  ['iptables', '-A', 'f2b-sshd', '-s', '203.0.113.9', '-j', 'REJECT'],
  ['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'f2b-sshd'],
  ['iptables', '-N', 'LIBVIRT_INP'],
  ['iptables', '-A', 'INPUT', '-j', 'LIBVIRT_INP'],
  ['iptables', '-t', 'nat', '-N', 'KUBE-SERVICES'],
  ['iptables', '-N', 'ts-input'],
  ['iptables', '-A', 'INPUT', '-j', 'ts-input'],
];

/** fail2ban's nftables action and the CrowdSec firewall bouncer in nftables mode. */
const nftRuleset = `table inet f2b-table {
  set addr-set-sshd { type ipv4_addr; elements = { 198.51.100.23 } }
  chain f2b-chain { type filter hook input priority -1; policy accept;
    tcp dport 22 ip saddr @addr-set-sshd reject
  }
}
table ip crowdsec {
  set crowdsec-blacklists { type ipv4_addr; flags timeout; }
  chain crowdsec-chain { type filter hook input priority -10; policy accept;
    ip saddr @crowdsec-blacklists drop
  }
}
`;

export async function addCooperatingTools(sandbox: Pick<Sandbox, 'exec'>): Promise<void> {
  for (const argv of [...dockerRules, ...otherChains]) expect((await sandbox.exec(argv)).code).toBe(0);
  expect((await sandbox.exec(['nft', '-f', '-'], nftRuleset)).code).toBe(0);
}

/** The native tables above as nft prints them, to compare before and after a write. */
export async function cooperatingTables(sandbox: Pick<Sandbox, 'exec'>): Promise<string> {
  const tables = await Promise.all([
    sandbox.exec(['nft', 'list', 'table', 'inet', 'f2b-table']),
    sandbox.exec(['nft', 'list', 'table', 'ip', 'crowdsec']),
  ]);
  for (const table of tables) expect(table.code).toBe(0);
  return tables.map((table) => table.stdout).join('');
}
