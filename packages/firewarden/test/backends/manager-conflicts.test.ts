/**
 * @module Tests: a competing manager of the namespace's firewall (a native nftables table that
 * filters the input hook with a drop policy, an active ufw while iptables is chosen, a running
 * firewalld) makes the agent's backend read-only: status lists it as competing, every write
 * answers FW_BACKEND_CONFLICT with the manager and why, and nothing changes; with
 * allow_write_on_manager_conflict the same write goes through. (Cooperating managers:
 * cooperating-managers.test.ts.)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { rules as canonical } from '../engine/support/rules.js';
import {
  bundledAgentForFile,
  createSandbox,
  type Sandbox,
  type SandboxAgent,
  sandboxSave,
  startSandboxAgent,
  withPrivateRun,
  withUfwCopies,
} from './support/sandbox.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };

interface Scenario {
  manager: string;
  reason: string;
  /** Puts the other manager in place; returns a clean-up. */
  setup(sandbox: Sandbox): Promise<() => void>;
}

const scenarios: Scenario[] = [
  {
    manager: 'nftables',
    reason: 'native nftables table inet custom filters the input hook(s) with a drop policy (input)',
    setup: async (sandbox) => {
      // Debian's /etc/nftables.conf shape, with a drop policy (and lo allowed, as such files do).
      const ruleset =
        'table inet custom {\n chain input {\n type filter hook input priority 0; policy drop;\n iif lo accept\n }\n}\n';
      expect((await sandbox.exec(['nft', '-f', '-'], ruleset)).code).toBe(0);
      return () => undefined;
    },
  },
  {
    manager: 'ufw',
    reason: 'ufw is active (ENABLED=yes and its chains are loaded)',
    setup: async (sandbox) => {
      withUfwCopies(sandbox);
      expect((await sandbox.exec(['ufw', '--force', 'enable'])).code).toBe(0);
      return () => undefined;
    },
  },
  {
    manager: 'firewalld',
    reason: 'firewalld runs (pid',
    setup: async (sandbox) => {
      // A process named firewalld, and its pid file in the sandbox's own /run.
      const run = withPrivateRun(sandbox);
      const program = path.join(sandbox.folder, 'firewalld');
      copyFileSync('/usr/bin/sleep', program);
      const daemon = spawn(program, ['600'], { stdio: 'ignore' });
      mkdirSync(path.join(run, 'firewalld'));
      writeFileSync(path.join(run, 'firewalld', 'firewalld.pid'), `${daemon.pid}\n`);
      return () => daemon.kill('SIGKILL');
    },
  },
];

describe.skipIf(namespaceSkipReason !== null)('manager conflicts', () => {
  const bundle = bundledAgentForFile();
  let sandbox: Sandbox;
  let agent: SandboxAgent | undefined;
  let cleanUp: () => void = () => undefined;

  afterEach(async () => {
    await agent?.stop();
    agent = undefined;
    cleanUp();
    await sandbox.remove();
  });

  test.each(scenarios)(
    '$manager: writes are refused until the operator opts in',
    async ({ manager, reason, setup }) => {
      sandbox = await createSandbox();
      // A host always has its filter tables; a fresh namespace creates them on first use.
      for (const tool of ['iptables', 'ip6tables']) await sandbox.exec([tool, '-P', 'INPUT', 'ACCEPT']);
      cleanUp = await setup(sandbox);
      const before = await sandboxSave(sandbox);

      agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables' });
      const status = (await call(agent.socketPath, 'status')).result;
      expect(status).toMatchObject({
        backend: 'iptables',
        read_only: true,
        allow_write_on_manager_conflict: false,
      });
      expect(status.conflicts).toEqual([{ manager, reason: expect.stringContaining(reason) }]);
      expect(status.managers).toEqual([
        { name: manager, role: 'competing', reason: status.conflicts[0].reason },
      ]);
      for (const [op, params] of [
        ['apply', { rules: [ssh] }],
        ['begin_safe_apply', { rules: [ssh], timeout_seconds: 60 }],
      ] as const) {
        const refused = await call(agent.socketPath, op, params);
        expect(refused.error).toMatchObject({
          code: 'FW_BACKEND_CONFLICT',
          message: expect.stringContaining(manager),
          details: { conflicts: status.conflicts },
        });
      }
      expect(await sandboxSave(sandbox)).toBe(before);
      expect((await call(agent.socketPath, 'list_snapshots')).result.snapshots).toEqual([]);
      // Reading and taking restore points stay allowed: they do not write the firewall.
      expect((await call(agent.socketPath, 'read_rules')).ok).toBe(true);
      const point = await call(agent.socketPath, 'snapshot', { kind: 'manual' });
      expect(point.ok).toBe(true);
      expect((await call(agent.socketPath, 'restore', { snapshot_id: point.result.id })).error.code).toBe(
        'FW_BACKEND_CONFLICT',
      );
      await agent.stop();

      agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables', allowWrite: true });
      expect((await call(agent.socketPath, 'status')).result).toMatchObject({
        read_only: false,
        allow_write_on_manager_conflict: true,
        conflicts: status.conflicts,
      });
      expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
      expect((await call(agent.socketPath, 'read_rules')).result.rules).toEqual(canonical([ssh]));
    },
  );
});
