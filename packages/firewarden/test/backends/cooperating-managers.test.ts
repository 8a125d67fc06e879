/**
 * @module Tests: Docker, fail2ban, CrowdSec, libvirt, Kubernetes and Tailscale keep to chains and
 * tables of their own, so they cooperate: on both iptables variants the agent names each in
 * status as cooperating, stays writable, lists their rules as foreign with their owner, and a
 * write and its rollback leave their iptables chains and nftables tables exactly as they were.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { rules as canonical } from '../engine/support/rules.js';
import { addCooperatingTools, cooperatingTables } from './support/cooperating-tools.js';
import {
  bundledAgentForFile,
  createVariantSandbox,
  eventually,
  notOurLines,
  type Sandbox,
  type SandboxAgent,
  sandboxSave,
  startSandboxAgent,
} from './support/sandbox.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };

describe.skipIf(namespaceSkipReason !== null).each(['nf_tables', 'legacy'] as const)(
  'cooperating managers on %s',
  (variant) => {
    const bundle = bundledAgentForFile();
    let sandbox: Sandbox;
    let agent: SandboxAgent | undefined;

    beforeEach(async () => {
      sandbox = await createVariantSandbox(variant);
      await sandbox.exec(['ip6tables', '-P', 'INPUT', 'ACCEPT']);
      await addCooperatingTools(sandbox);
      agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables' });
    });
    afterEach(async () => {
      await agent?.stop();
      agent = undefined;
      await sandbox.remove();
    });

    test('status names them as cooperating and the backend stays writable', async () => {
      const status = (await call(agent!.socketPath, 'status')).result;
      expect(status).toMatchObject({ backend: 'iptables', variant, conflicts: [], read_only: false });
      const roles = Object.fromEntries(
        status.managers.map((m: { name: string; role: string }) => [m.name, m.role]),
      );
      expect(roles).toEqual({
        docker: 'cooperating',
        fail2ban: 'cooperating',
        crowdsec: 'cooperating',
        libvirt: 'cooperating',
        kubernetes: 'cooperating',
        tailscale: 'cooperating',
      });
      const reasons = status.managers.map((m: { reason: string }) => m.reason).join('\n');
      expect(reasons).toContain('DOCKER-USER (ipv4 filter)');
      expect(reasons).toContain('inet f2b-table');
      expect(reasons).toContain('ip crowdsec');
    });

    test('read_rules lists their rules as foreign, with their owner, and none of ours', async () => {
      expect((await call(agent!.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
      const { foreign, policies } = (await call(agent!.socketPath, 'read_rules')).result;
      const owned = (owner: string, table: string, chain: string, rule: string) =>
        expect(foreign).toContainEqual(expect.objectContaining({ owner, table, chain, rule }));
      owned('docker', 'filter', 'DOCKER-USER', '-A DOCKER-USER -j RETURN');
      owned('fail2ban', 'filter', 'INPUT', '-A INPUT -p tcp -m tcp --dport 22 -j f2b-sshd');
      owned(
        'fail2ban',
        'f2b-table',
        'f2b-chain',
        'tcp dport 22 ip saddr @addr-set-sshd reject with icmp port-unreachable',
      );
      owned('crowdsec', 'crowdsec', 'crowdsec-chain', 'ip saddr @crowdsec-blacklists drop');
      owned('tailscale', 'filter', 'INPUT', '-A INPUT -j ts-input');
      expect(foreign.filter((line: { rule: string }) => line.rule.includes('FIREWARDEN'))).toEqual([]);
      expect(policies).toContainEqual({ family: 'ipv4', table: 'filter', chain: 'INPUT', policy: 'ACCEPT' });
    });

    test('a write and a rollback leave their chains and tables untouched', async () => {
      const beforeSave = await sandboxSave(sandbox);
      const beforeTables = await cooperatingTables(sandbox);
      expect((await call(agent!.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
      expect((await call(agent!.socketPath, 'read_rules')).result.rules).toEqual(canonical([ssh]));
      const after = await sandboxSave(sandbox);
      expect(after).toContain('-A FIREWARDEN-INPUT -p tcp -m tcp --dport 22 -j ACCEPT');
      expect(notOurLines(after)).toBe(notOurLines(beforeSave));
      expect(await cooperatingTables(sandbox)).toBe(beforeTables);

      const begun = await call(agent!.socketPath, 'begin_safe_apply', { rules: [], timeout_seconds: 1 });
      expect(begun.ok).toBe(true);
      await eventually(
        async () => (await call(agent!.socketPath, 'status')).result.pending_transaction === null,
        'the safe apply rolled back',
      );
      expect(await sandboxSave(sandbox)).toBe(after);
      expect(await cooperatingTables(sandbox)).toBe(beforeTables);
    });
  },
);
