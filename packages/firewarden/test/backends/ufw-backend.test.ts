/**
 * @module Tests: the agent on the ufw backend, as its own process in a network namespace with
 * private copies of /etc/ufw and /etc/default: apply through ufw's commands (read back from the
 * tuples and seen in iptables-save), restore points holding ufw's files round-trip, a failed
 * apply and an unconfirmed safe apply roll back (files byte for byte, kernel rules), foreign rules
 * survive, and `auto` picks ufw only when it is active.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { rules as canonical } from '../engine/support/rules.js';
import { addForeignRules, addLaterForeignRule } from './support/foreign-rules.js';
import {
  bundledAgentForFile,
  createSandbox,
  eventually,
  type Sandbox,
  type SandboxAgent,
  sandboxSave,
  startSandboxAgent,
  withUfwCopies,
} from './support/sandbox.js';

const ssh = {
  direction: 'in',
  action: 'allow',
  protocol: 'tcp',
  destination_port: '22',
  comment: 'ssh – ünïcode',
};
const dns = {
  direction: 'in',
  action: 'deny',
  protocol: 'udp',
  destination_port: '1000-2000',
  source: '10.0.0.0/8',
  interface: 'eth0',
};
const mail = { direction: 'out', action: 'reject', protocol: 'tcp', destination_port: '25', family: 'ipv6' };
const limited = { direction: 'in', action: 'limit', protocol: 'tcp', destination_port: '2222' };

/** Every line of the kernel's rules that is not ufw's. */
const foreignLines = (save: string) =>
  save
    .split('\n')
    .filter((line) => !line.includes('ufw') && !line.startsWith(':'))
    .join('\n');

describe.skipIf(namespaceSkipReason !== null)('the ufw backend', () => {
  const bundle = bundledAgentForFile();
  let sandbox: Sandbox;
  let ufw: ReturnType<typeof withUfwCopies>;
  let agent: SandboxAgent | undefined;
  const files = () => ['user.rules', 'user6.rules', 'ufw.conf'].map((f) => ufw.read(f)).join('\n=====\n');

  beforeEach(async () => {
    sandbox = await createSandbox();
    ufw = withUfwCopies(sandbox);
    await addForeignRules(sandbox);
    expect((await sandbox.exec(['ufw', '--force', 'enable'])).code).toBe(0);
    // ufw's first start in a fresh namespace leaves two lines of its v6 limit chain out; a reload
    // (which every restore runs) puts them in: start from the reloaded state.
    expect((await sandbox.exec(['ufw', 'reload'])).code).toBe(0);
  });
  afterEach(async () => {
    await agent?.stop();
    agent = undefined;
    await sandbox.remove();
  });

  test('apply goes through ufw: tuples and kernel hold the rules; a restore point brings the files back', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    const status = await call(agent.socketPath, 'status');
    expect(status.result).toMatchObject({
      backend: 'ufw',
      variant: 'nf_tables',
      ufw_active: true,
      conflicts: [],
      read_only: false,
    });
    const filesBefore = files();
    const kernelBefore = await sandboxSave(sandbox);

    const applied = await call(agent.socketPath, 'apply', { rules: [ssh, dns, mail, limited] });
    expect(applied.ok).toBe(true);
    const read = await call(agent.socketPath, 'read_rules');
    expect(read.result).toMatchObject({ rules: canonical([ssh, dns, mail, limited], 'ufw'), unparsed: [] });
    expect(ufw.read('user.rules')).toContain(
      '### tuple ### deny udp 1000:2000 0.0.0.0/0 any 10.0.0.0/8 in_eth0',
    );
    const kernel = await sandboxSave(sandbox);
    expect(kernel).toContain('-A ufw-user-input -p tcp -m tcp --dport 22 -j ACCEPT');
    expect(kernel).toContain(
      '-A ufw-user-input -s 10.0.0.0/8 -i eth0 -p udp -m multiport --dports 1000:2000 -j DROP',
    );
    expect(foreignLines(kernel)).toBe(foreignLines(kernelBefore));

    // A second list that keeps the first rule: the rest is deleted and the new tail appended.
    const second = await call(agent.socketPath, 'apply', { rules: [ssh, limited] });
    expect(second.ok).toBe(true);
    expect((await call(agent.socketPath, 'read_rules')).result.rules).toEqual(
      canonical([ssh, limited], 'ufw'),
    );

    const restored = await call(agent.socketPath, 'restore', { snapshot_id: applied.result.snapshot_id });
    expect(restored.ok).toBe(true);
    expect(files()).toBe(filesBefore);
    expect(await sandboxSave(sandbox)).toBe(kernelBefore);
  });

  test('a manual restore point holds ufw files with a hash and round-trips', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
    const point = await call(agent.socketPath, 'snapshot', { kind: 'manual', note: 'ssh only' });
    expect(point.result).toMatchObject({
      kind: 'manual',
      note: 'ssh only',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const filesAtPoint = files();
    const kernelAtPoint = await sandboxSave(sandbox);

    expect((await call(agent.socketPath, 'apply', { rules: [dns, mail] })).ok).toBe(true);
    expect(files()).not.toBe(filesAtPoint);
    const restored = await call(agent.socketPath, 'restore', { snapshot_id: point.result.id });
    expect(restored.result).toMatchObject({ restored: point.result.id, hash: point.result.hash });
    expect(files()).toBe(filesAtPoint);
    expect(await sandboxSave(sandbox)).toBe(kernelAtPoint);
    // The state now hashes to the point's hash again.
    const again = await call(agent.socketPath, 'snapshot', { kind: 'manual' });
    expect(again.result.hash).toBe(point.result.hash);
  });

  test('a write that ufw does not carry out as asked rolls back at once, files byte for byte', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
    const filesBefore = files();
    const kernelBefore = await sandboxSave(sandbox);
    // ufw skips a rule it already holds, so the list read back is shorter than the one asked.
    const failed = await call(agent.socketPath, 'apply', { rules: [ssh, dns, limited, dns] });
    expect(failed.error).toMatchObject({ code: 'FW_APPLY_FAILED' });
    expect(files()).toBe(filesBefore);
    expect(await sandboxSave(sandbox)).toBe(kernelBefore);
  });

  test('a rule ufw refuses in its dry run changes nothing', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    const filesBefore = files();
    // 15 list entries are within multiport's limit, but a range takes two of its slots: ufw refuses.
    const ports = '22,80,443,1000-2000,3000,3001,3002,3003,3004,3005,3006,3007,3008,3009,3010';
    const refused = await call(agent.socketPath, 'apply', {
      rules: [ssh, { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: ports }],
    });
    expect(refused.error).toMatchObject({ code: 'FW_VALIDATION_FAILED' });
    expect(refused.error.details.errors[0]).toMatchObject({ path: 'rules.1', code: 'backend_refused' });
    expect(files()).toBe(filesBefore);
    expect((await call(agent.socketPath, 'list_snapshots')).result.snapshots).toEqual([]);
  });

  test('an unconfirmed safe apply is rolled back by the agent at the deadline', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    const filesBefore = files();
    const kernelBefore = await sandboxSave(sandbox);
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [dns], timeout_seconds: 5 });
    expect(begun.ok).toBe(true);
    expect(ufw.read('user.rules')).toContain('in_eth0');
    // Another tool changes its own chain during the window: the rollback must not undo that.
    const expected = await addLaterForeignRule(sandbox, kernelBefore);
    await eventually(
      async () => files() === filesBefore && (await sandboxSave(sandbox)) === expected,
      'ufw files and kernel rules restored, the foreign rule kept',
    );
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
  });

  test('auto picks ufw when it is active and iptables when it is not', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'auto' });
    expect((await call(agent.socketPath, 'status')).result.backend).toBe('ufw');
    await agent.stop();
    expect((await sandbox.exec(['ufw', '--force', 'disable'])).code).toBe(0);
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'auto' });
    expect((await call(agent.socketPath, 'status')).result).toMatchObject({
      backend: 'iptables',
      conflicts: [],
    });
  });
});
