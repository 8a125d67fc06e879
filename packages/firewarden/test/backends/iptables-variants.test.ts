/**
 * @module Tests: the iptables backend on both kernels' interfaces. The `iptables` alternative is
 * switched for the sandbox alone (a private copy of /etc/alternatives), the agent detects the
 * variant from `iptables -V` and uses the matching save/restore pair: its rules land in that
 * variant's ruleset and not in the other. Foreign rules (another tool's chain, a rule in INPUT, a
 * nat rule) survive apply and rollback byte for byte.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { rules as canonical } from '../engine/support/rules.js';
import { addForeignRules, addLaterForeignRule } from './support/foreign-rules.js';
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
const web = {
  direction: 'in',
  action: 'deny',
  protocol: 'tcp',
  destination_port: '8080',
  source: '192.0.2.0/24',
};
const out = { direction: 'out', action: 'reject', protocol: 'udp', destination_port: '53', family: 'ipv6' };

const variants = [
  { variant: 'nf_tables', other: ['iptables-legacy-save', 'ip6tables-legacy-save'] },
  { variant: 'legacy', other: ['iptables-nft-save', 'ip6tables-nft-save'] },
] as const;

describe.skipIf(namespaceSkipReason !== null).each(variants)(
  'the iptables backend on $variant',
  ({ variant, other }) => {
    const bundle = bundledAgentForFile();
    let sandbox: Sandbox;
    let agent: SandboxAgent | undefined;

    beforeEach(async () => {
      sandbox = await createVariantSandbox(variant);
      await addForeignRules(sandbox);
      agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables' });
    });
    afterEach(async () => {
      await agent?.stop();
      agent = undefined;
      await sandbox.remove();
    });

    test('the variant is detected and its own save/restore pair holds our rules', async () => {
      expect((await call(agent!.socketPath, 'status')).result).toMatchObject({
        backend: 'iptables',
        variant,
        conflicts: [],
        read_only: false,
      });
      const before = await sandboxSave(sandbox);
      expect((await call(agent!.socketPath, 'apply', { rules: [ssh, web, out] })).ok).toBe(true);
      expect((await call(agent!.socketPath, 'read_rules')).result).toMatchObject({
        rules: canonical([ssh, web, out]),
        unparsed: [],
      });
      const after = await sandboxSave(sandbox);
      expect(after).toContain('-A FIREWARDEN-INPUT -s 192.0.2.0/24 -p tcp -m tcp --dport 8080 -j DROP');
      expect(after).toContain('-A INPUT -j FIREWARDEN-INPUT');
      expect(notOurLines(after)).toBe(before);
      // The other variant's ruleset saw nothing of it.
      for (const tool of other) {
        expect((await sandbox.exec([tool])).stdout).not.toContain('FIREWARDEN');
      }
    });

    test('foreign rules survive an unconfirmed safe apply and its rollback byte for byte', async () => {
      const before = await sandboxSave(sandbox);
      const begun = await call(agent!.socketPath, 'begin_safe_apply', {
        rules: [ssh, out],
        timeout_seconds: 5,
      });
      expect(begun.ok).toBe(true);
      // Another tool changes its own chain during the window: the rollback must not undo that.
      const expected = await addLaterForeignRule(sandbox, before);
      expect(await sandboxSave(sandbox)).toContain('-A FIREWARDEN-INPUT');
      await eventually(
        async () => (await sandboxSave(sandbox)) === expected,
        'our rules gone, the foreign ones kept',
      );
      expect((await call(agent!.socketPath, 'status')).result.pending_transaction).toBeNull();
    });

    test('a restore point round-trips on this variant', async () => {
      expect((await call(agent!.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
      const point = await call(agent!.socketPath, 'snapshot', { kind: 'manual' });
      const atPoint = await sandboxSave(sandbox);
      expect((await call(agent!.socketPath, 'apply', { rules: [web, out] })).ok).toBe(true);
      expect(await sandboxSave(sandbox)).not.toBe(atPoint);
      expect((await call(agent!.socketPath, 'restore', { snapshot_id: point.result.id })).ok).toBe(true);
      expect(await sandboxSave(sandbox)).toBe(atPoint);
    });
  },
);
