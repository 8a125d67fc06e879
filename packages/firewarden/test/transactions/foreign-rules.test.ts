/**
 * @module Tests: the rules in force that are not ours, through the bins, in a sandbox holding
 * Docker's, fail2ban's, CrowdSec's, libvirt's, kube-proxy's and Tailscale's chains and tables and
 * another tool's rules. `GET /firewall/rules` lists each with its owner (read from the kernel by
 * the agent) and status names the cooperating managers while a transaction still applies; an
 * action naming a foreign rule answers 409 FW_FOREIGN_RULE and changes nothing; the lockout check
 * evaluates INPUT's policy and the foreign lines around our chain.
 */
import { describe, expect, test } from 'vitest';
import { addCooperatingTools } from '../backends/support/cooperating-tools.js';
import { sandboxSave } from '../backends/support/sandbox.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { sandboxedInstallationForFile } from './support/sandboxed-installation.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };

interface Foreign {
  owner: string;
  family: string;
  table: string;
  chain: string;
  rule: string;
}

describe.skipIf(namespaceSkipReason !== null)('foreign rules through the API', () => {
  const file = sandboxedInstallationForFile(
    { backend: 'iptables', safe_apply_timeout_seconds: 30 },
    (sandbox) => addCooperatingTools(sandbox),
  );
  const foreign = async (): Promise<Foreign[]> =>
    (await file.host.admin.get('/api/v1/firewall/rules')).body.data.foreign;
  const post = (actions: unknown[], extra: Record<string, unknown> = {}) =>
    file.host.admin.post('/api/v1/firewall/transactions', { actions, safe_apply: false, ...extra });

  test('GET /firewall/rules lists every foreign rule with its owner; status names the managers', async () => {
    const status = (await file.host.admin.get('/api/v1/firewall/status')).body.data;
    expect(status).toMatchObject({ read_only: false, conflicts: [] });
    expect(status.managers.map((m: { name: string }) => m.name).sort()).toEqual(
      ['crowdsec', 'docker', 'fail2ban', 'kubernetes', 'libvirt', 'tailscale'].sort(),
    );
    const applied = await post([{ op: 'add', rule: ssh }]);
    expect(applied.status).toBe(201);

    const listed = await foreign();
    const entry = (owner: string, chain: string, rule: string, family = 'ipv4', table = 'filter') =>
      expect(listed).toContainEqual(expect.objectContaining({ owner, family, table, chain, rule }));
    entry('docker', 'DOCKER-USER', '-A DOCKER-USER -j RETURN');
    entry('docker', 'FORWARD', '-A FORWARD -j DOCKER-USER');
    entry(
      'docker',
      'DOCKER',
      '-A DOCKER -p tcp -m tcp --dport 8080 -j DNAT --to-destination 172.17.0.2:80',
      'ipv4',
      'nat',
    );
    entry(
      'fail2ban',
      'f2b-sshd',
      '-A f2b-sshd -s 203.0.113.9/32 -j REJECT --reject-with icmp-port-unreachable',
    );
    entry(
      'fail2ban',
      'f2b-chain',
      'tcp dport 22 ip saddr @addr-set-sshd reject with icmp port-unreachable',
      'inet',
      'f2b-table',
    );
    entry('crowdsec', 'crowdsec-chain', 'ip saddr @crowdsec-blacklists drop', 'ip', 'crowdsec');
    entry('libvirt', 'INPUT', '-A INPUT -j LIBVIRT_INP');
    expect(listed.some((line) => line.owner === 'kubernetes')).toBe(false); // KUBE-SERVICES is empty
    entry('tailscale', 'INPUT', '-A INPUT -j ts-input');
    entry('unknown', 'INPUT', '-A INPUT -p tcp -m tcp --dport 9999 -j ACCEPT');
    entry('unknown', 'OUTPUT', '-A OUTPUT -d 2001:db8::1/128 -j DROP', 'ipv6');
    // Ours are not foreign: neither our chains nor the jumps to them.
    expect(listed.filter((line) => line.rule.includes('FIREWARDEN'))).toEqual([]);
  });

  test('an action naming a foreign rule answers 409 FW_FOREIGN_RULE and changes nothing', async () => {
    const dockerLine = (await foreign()).find((line) => line.chain === 'DOCKER-USER')!;
    const before = await sandboxSave(file.sandbox);
    const refused = await post([{ op: 'delete', foreign: dockerLine }]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'FW_FOREIGN_RULE',
      details: { path: 'actions.0', owner: 'docker' },
    });
    const unknown = await post([
      { op: 'delete', foreign: { ...dockerLine, rule: '-A DOCKER-USER -j DROP' } },
    ]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.errors[0]).toMatchObject({
      path: 'actions.0.foreign',
      code: 'not_found',
    });
    expect(await sandboxSave(file.sandbox)).toBe(before);
  });

  test("the lockout check counts INPUT's policy and the foreign lines around our chain", async () => {
    // Our allow of SSH is all that keeps tcp/22 open once INPUT drops by policy.
    expect((await file.sandbox.exec(['iptables', '-P', 'INPUT', 'DROP'])).code).toBe(0);
    const removeSsh = [{ op: 'delete', rule: ssh }];
    const refused = await post(removeSsh);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('FW_LOCKOUT_RISK');
    expect(refused.body.error.details.conflicts.map((c: { code: string }) => c.code)).toContain(
      'SSH_LOCKOUT_RISK',
    );
    // A foreign accept of SSH placed before our chain keeps it open whatever ours say.
    expect(
      (
        await file.sandbox.exec([
          'iptables',
          '-I',
          'INPUT',
          '1',
          '-p',
          'tcp',
          '--dport',
          '22',
          '-j',
          'ACCEPT',
        ])
      ).code,
    ).toBe(0);
    expect((await post(removeSsh)).status).toBe(201);
    // With the policy back to ACCEPT, a foreign drop after our chain closes SSH when our allow goes.
    for (const argv of [
      ['iptables', '-D', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'ACCEPT'],
      ['iptables', '-P', 'INPUT', 'ACCEPT'],
      ['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'DROP'],
    ]) {
      expect((await file.sandbox.exec(argv)).code).toBe(0);
    }
    expect((await post([{ op: 'add', rule: ssh }])).status).toBe(201);
    const closing = await post(removeSsh);
    expect(closing.status).toBe(409);
    expect(closing.body.error.code).toBe('FW_LOCKOUT_RISK');
  });
});
