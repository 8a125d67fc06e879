/**
 * @module Tests: safe apply always rolls back, with the agent as its own process managing the
 * real iptables of a network namespace. The agent is SIGKILLed at each step of a safe apply and
 * of its rollback (the `FIREWARDEN_AGENT_CRASH_AT` test hook, see src/agent/crash-point.ts), then
 * started again: the rule the kernel holds (`iptables -S`) is asserted after the restart. Other
 * applies are refused while a safe apply waits; the pending restore point survives any number of
 * newer ones; a rollback that fails is retried (loudly) while status and reads keep answering.
 * Lines of our chains the model cannot express are never dropped without being named.
 */
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import {
  addUnmanagedLine,
  createNamespace,
  hostRules,
  type Namespace,
  namespaceSkipReason,
} from '../engine/support/netns.js';
import { type AgentProcess, bundleAgent, call, startAgent } from './support/agent-process.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };
const deny22 = { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '22' };
const denyLine = '-A FIREWARDEN-INPUT -p tcp -m tcp --dport 22 -j DROP';
/** Long enough that only a rollback at start (never the deadline) can remove the rule in a test. */
const longWindow = 600;

describe.skipIf(namespaceSkipReason !== null)('safe apply always rolls back', () => {
  let bundle: string;
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let agent: AgentProcess;

  /** Our input chain as the kernel holds it (IPv4; the IPv6 twin is checked by `ownRules6`). */
  const ownRules = async () =>
    (await ns.exec(['iptables', '-S', 'FIREWARDEN-INPUT'])).stdout
      .split('\n')
      .filter((line) => line.startsWith('-A '));
  const ownRules6 = async () =>
    (await ns.exec(['ip6tables', '-S', 'FIREWARDEN-INPUT'])).stdout
      .split('\n')
      .filter((line) => line.startsWith('-A '));
  const pendingFile = () => path.join(agent.stateDir, 'pending-transaction.json');
  const killedBy = (process: AgentProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      if (process.child.exitCode !== null || process.child.signalCode !== null)
        return resolve(process.child.signalCode);
      process.child.once('exit', () => resolve(process.child.signalCode));
    });
  /** Starts the agent with the crash hook at `step`, runs `request`, and expects the agent killed. */
  const crashAt = async (step: string, request: () => Promise<unknown>) => {
    await agent.stop('SIGTERM');
    agent = await startAgent(bundle, ns.name, folder, { NODE_ENV: 'test', FIREWARDEN_AGENT_CRASH_AT: step });
    const answer = await request();
    expect(await killedBy(agent)).toBe('SIGKILL');
    return answer;
  };

  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleAgent();
  });
  afterAll(async () => {
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });
  beforeEach(async () => {
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-crash-'));
    await chmod(folder, 0o755);
    for (const tool of ['iptables', 'ip6tables']) await ns.exec([tool, '-P', 'INPUT', 'ACCEPT']);
    agent = await startAgent(bundle, ns.name, folder);
    // Our chains exist and allow SSH: the state every safe apply below must come back to.
    expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
  });
  afterEach(async () => {
    await agent?.stop('SIGKILL');
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  const allowed = ['-A FIREWARDEN-INPUT -p tcp -m tcp --dport 22 -j ACCEPT'];

  test('killed after writing the intent, before the kernel write: the restart rolls back (a no-op) at once', async () => {
    const answer = await crashAt('after-intent-write', () =>
      call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: longWindow }),
    );
    expect(answer).toBeUndefined();
    expect(existsSync(pendingFile())).toBe(true);
    expect(await ownRules()).toEqual(allowed);
    agent = await startAgent(bundle, ns.name, folder);
    expect(await ownRules()).toEqual(allowed);
    expect(existsSync(pendingFile())).toBe(false);
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
    expect(agent.stderr()).toContain('"msg":"safe apply rolled back"');
  });

  test('killed after the kernel write, before answering: the restart removes the rule at once', async () => {
    await crashAt('after-kernel-write', () =>
      call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: longWindow }),
    );
    expect(await ownRules()).toEqual([denyLine]);
    agent = await startAgent(bundle, ns.name, folder);
    expect(await ownRules()).toEqual(allowed);
    expect(await ownRules6()).toEqual(allowed);
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
    // Nothing is left that could still fire later, and applies are accepted again.
    expect((await call(agent.socketPath, 'apply', { rules: [ssh, deny22] })).ok).toBe(true);
  });

  test('killed once armed: the restart re-arms the window and rolls back at its deadline', async () => {
    await crashAt('after-arm', () =>
      call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 3 }),
    );
    agent = await startAgent(bundle, ns.name, folder);
    const status = (await call(agent.socketPath, 'status')).result;
    expect(status.pending_transaction).toMatchObject({ transaction_id: expect.any(String) });
    await eventually(async () => (await ownRules()).join() === allowed.join(), 'rollback at the deadline');
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
  });

  test('killed after the rollback wrote the kernel, before forgetting the transaction: the restart rolls back again', async () => {
    await agent.stop('SIGTERM');
    agent = await startAgent(bundle, ns.name, folder, {
      NODE_ENV: 'test',
      FIREWARDEN_AGENT_CRASH_AT: 'after-rollback-write',
    });
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 1 });
    expect(begun.ok).toBe(true);
    expect(await ownRules()).toEqual([denyLine]);
    expect(await killedBy(agent)).toBe('SIGKILL');
    expect(existsSync(pendingFile())).toBe(true);
    agent = await startAgent(bundle, ns.name, folder);
    expect(await ownRules()).toEqual(allowed);
    expect(existsSync(pendingFile())).toBe(false);
  });

  test('the crash hook is inert without NODE_ENV=test', async () => {
    await agent.stop('SIGTERM');
    agent = await startAgent(bundle, ns.name, folder, { FIREWARDEN_AGENT_CRASH_AT: 'after-kernel-write' });
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 1 });
    expect(begun.ok).toBe(true);
    await eventually(async () => (await ownRules()).join() === allowed.join(), 'rollback at the deadline');
    expect(agent.child.exitCode).toBeNull();
    expect(agent.child.signalCode).toBeNull();
  });

  test('a plain apply while a safe apply waits is refused with its id, so the deadline undoes nothing else', async () => {
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 2 });
    const id = begun.result.transaction_id;
    const refused = await call(agent.socketPath, 'apply', { rules: [ssh, deny22] });
    expect(refused.error).toMatchObject({ code: 'FW_TRANSACTION_PENDING', details: { transaction_id: id } });
    const second = await call(agent.socketPath, 'begin_safe_apply', { rules: [ssh], timeout_seconds: 2 });
    expect(second.error).toMatchObject({ code: 'FW_TRANSACTION_PENDING', details: { transaction_id: id } });
    expect(await ownRules()).toEqual([denyLine]);
    await eventually(async () => (await ownRules()).join() === allowed.join(), 'rollback at the deadline');
    expect((await call(agent.socketPath, 'apply', { rules: [ssh, deny22] })).ok).toBe(true);
  });

  test('60 newer restore points never prune the one a pending safe apply needs', async () => {
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 10 });
    for (let i = 0; i < 60; i += 1) {
      expect((await call(agent.socketPath, 'snapshot', { kind: 'automatic' })).ok).toBe(true);
    }
    const points = (await call(agent.socketPath, 'list_snapshots')).result.snapshots as { id: string }[];
    expect(points.map((p) => p.id)).toContain(begun.result.snapshot_id);
    await eventually(async () => (await ownRules()).join() === allowed.join(), 'rollback at the deadline');
  });

  test('a failing rollback is retried and alerted; status and reads keep answering; it succeeds once it can', async () => {
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny22], timeout_seconds: 1 });
    const point = path.join(agent.stateDir, 'snapshots', `${begun.result.snapshot_id}.json`);
    const aside = path.join(folder, 'point-aside.json');
    renameSync(point, aside);
    await eventually(
      async () =>
        (await call(agent.socketPath, 'status')).result.pending_transaction?.rollback_failure?.attempts >= 2,
      'two failed attempts',
    );
    const status = (await call(agent.socketPath, 'status')).result;
    expect(status.pending_transaction).toMatchObject({
      transaction_id: begun.result.transaction_id,
      rollback_failure: { last_error: expect.stringContaining('no such restore point') },
    });
    expect(agent.stderr()).toMatch(/"level":"error","msg":"safe apply rollback FAILED[^\n]*"attempts":1/);
    expect(await ownRules()).toEqual([denyLine]);
    expect((await call(agent.socketPath, 'read_rules')).ok).toBe(true);
    expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).error.code).toBe(
      'FW_TRANSACTION_PENDING',
    );
    // Past its deadline a transaction can no longer be confirmed into staying.
    const late = await call(agent.socketPath, 'confirm', { transaction_id: begun.result.transaction_id });
    expect(late.error.code).toBe('FW_TRANSACTION_NOT_FOUND');

    renameSync(aside, point);
    await eventually(async () => (await ownRules()).join() === allowed.join(), 'a retry that succeeds');
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
    expect((await call(agent.socketPath, 'apply', { rules: [ssh] })).ok).toBe(true);
  });

  test('lines of our chains the model cannot express are refused by name, and dropped only when named', async () => {
    const handAdded = await addUnmanagedLine(ns);
    expect(await ownRules()).toEqual([handAdded, ...allowed]);
    for (const op of ['apply', 'begin_safe_apply'] as const) {
      const refused = await call(agent.socketPath, op, {
        rules: [ssh, deny22],
        ...(op === 'begin_safe_apply' ? { timeout_seconds: 5 } : {}),
        acknowledge_unmanaged: ['-A FIREWARDEN-INPUT -j ACCEPT'],
      });
      expect(refused.error).toMatchObject({ code: 'FW_UNMANAGED_RULES', details: { lines: [handAdded] } });
    }
    expect(await ownRules()).toEqual([handAdded, ...allowed]);
    const applied = await call(agent.socketPath, 'apply', {
      rules: [ssh, deny22],
      acknowledge_unmanaged: [handAdded],
    });
    expect(applied.ok).toBe(true);
    expect(await ownRules()).toEqual([...allowed, denyLine]);
  });
});
