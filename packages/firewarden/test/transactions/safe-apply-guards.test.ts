/**
 * @module Tests: what guards a safe apply, through the bins (`firewarden agent` in a network
 * namespace, `firewarden serve` driving it over HTTP), with the kernel's own `iptables -S` as the
 * judge. The agent SIGKILLed right after the kernel write (the `FIREWARDEN_AGENT_CRASH_AT` test
 * hook) removes the rule when it starts again; a plain apply while a safe apply waits is a 409
 * with the waiting transaction's id; a rollback that fails is a critical notification, is
 * retried, and a late confirm cannot keep the change; a CLI restore supersedes a waiting safe
 * apply (its deadline undoes nothing); lines of our chains the model cannot
 * express are refused by name and, once named, seen by the lockout check.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import {
  addUnmanagedLine,
  createNamespace,
  hostRules,
  type Namespace,
  namespaceSkipReason,
} from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, runCli, startServer } from '../support/running-bin.js';
import { type AgentBin, startAgentBin } from './support/agent-bin.js';

const deny = (port: number) => ({
  op: 'add',
  rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(port) },
});
const denyLine = (port: number) => `-A FIREWARDEN-INPUT -p tcp -m tcp --dport ${port} -j DROP`;

describe.skipIf(namespaceSkipReason !== null)('safe-apply guards through the bins', () => {
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let installation: Installation;
  let agent: AgentBin;
  let server: RunningServer;
  let admin: ApiClient;

  const stateDir = () => path.join(folder, 'state');
  const startAgent = (env: NodeJS.ProcessEnv = {}) =>
    startAgentBin(ns.name, ['--config', installation.configFile, '--state-dir', stateDir()], env);
  const ownRules = async () =>
    (await ns.exec(['iptables', '-S', 'FIREWARDEN-INPUT'])).stdout
      .split('\n')
      .filter((line) => line.startsWith('-A '));
  const transact = (body: Record<string, unknown>) => admin.post('/api/v1/firewall/transactions', body);
  const transaction = async (id: string) =>
    (await admin.get(`/api/v1/firewall/transactions/${id}`)).body.data.transaction;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
    for (const tool of ['iptables', 'ip6tables']) await ns.exec([tool, '-P', 'INPUT', 'ACCEPT']);
    folder = mkdtempSync(path.join(tmpdir(), 'fw-guards-'));
    await chmod(folder, 0o755);
    installation = (await createInstallation('sqlite'))!;
    await installation.writeConfig({
      agent: { socket_path: path.join(folder, 'agent.sock') },
      firewall: { safe_apply_timeout_seconds: 5 },
    });
    await installation.createAdmin();
    agent = await startAgent();
    server = await startServer(['--config', installation.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await agent?.stop('SIGKILL');
    await installation?.remove();
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('the agent killed right after the kernel write removes the rule when it starts again', async () => {
    await agent.stop('SIGTERM');
    agent = await startAgent({ FIREWARDEN_AGENT_CRASH_AT: 'after-kernel-write' });
    const lost = await transact({ actions: [deny(8080)] });
    expect(lost.status).toBe(503);
    expect(lost.body.error.code).toBe('FW_AGENT_UNAVAILABLE');
    expect(await agent.stop()).toBeNull();
    expect(await ownRules()).toEqual([denyLine(8080)]);

    agent = await startAgent();
    expect(await ownRules()).toEqual([]);
    expect((await admin.get('/api/v1/firewall/status')).body.data.pending_transaction).toBeNull();
  });

  test('a plain apply while a safe apply waits is refused with its id, and is never undone by the deadline', async () => {
    const safe = await transact({ actions: [deny(8080)] });
    expect(safe.status).toBe(201);
    const id = safe.body.data.transaction.id;
    const plain = await transact({ actions: [deny(9090)], safe_apply: false });
    expect(plain.status).toBe(409);
    expect(plain.body.error).toMatchObject({
      code: 'FW_TRANSACTION_PENDING',
      details: { transaction_id: id },
    });
    expect(await ownRules()).toEqual([denyLine(8080)]);

    await eventually(async () => (await transaction(id)).state === 'rolled_back', 'the rollback');
    expect(await ownRules()).toEqual([]);
    expect((await transact({ actions: [deny(9090)], safe_apply: false })).status).toBe(201);
    expect(await ownRules()).toEqual([denyLine(9090)]);
    expect((await transact({ actions: [{ op: 'delete', position: 1 }], safe_apply: false })).status).toBe(
      201,
    );
  });

  test('a failing rollback is a critical notification, is retried, and a late confirm cannot keep the change', async () => {
    const safe = await transact({ actions: [deny(8080)] });
    const { id, restore_point_id: point, deadline } = safe.body.data.transaction;
    const file = path.join(stateDir(), 'snapshots', `${point}.json`);
    const aside = path.join(folder, 'aside.json');
    renameSync(file, aside);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(deadline) - Date.now()) + 1_500),
    );

    const status = (await admin.get('/api/v1/firewall/status')).body.data;
    expect(status.pending_transaction).toMatchObject({
      transaction_id: id,
      rollback_failure: { attempts: expect.any(Number) },
    });
    expect(await transaction(id)).toMatchObject({ state: 'pending' });
    const items = (await admin.get('/api/v1/notifications?limit=50')).body.data.items as {
      code: string;
      severity: string;
      details: { transaction_id: string };
    }[];
    expect(items.find((n) => n.code === 'FW_ROLLBACK_FAILED')).toMatchObject({
      severity: 'critical',
      details: { transaction_id: id },
    });
    const late = await admin.post(`/api/v1/firewall/transactions/${id}/confirm`);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: 'FW_TRANSACTION_NOT_PENDING',
      details: { state: 'pending' },
    });
    expect(await ownRules()).toEqual([denyLine(8080)]);

    renameSync(aside, file);
    await eventually(async () => (await ownRules()).length === 0, 'a retry that succeeds');
    expect(await transaction(id)).toMatchObject({ state: 'rolled_back' });
  });

  test('a restore from the CLI while a safe apply waits supersedes it: the deadline undoes nothing', async () => {
    const config = ['--config', installation.configFile];
    expect((await transact({ actions: [deny(7070)], safe_apply: false })).status).toBe(201);
    const created = await runCli(['restore', 'create', '--name', 'deny 7070', '--json', ...config]);
    const point = JSON.parse(created.stdout).snapshot;
    expect((await transact({ actions: [{ op: 'delete', position: 1 }], safe_apply: false })).status).toBe(
      201,
    );
    const safe = await transact({ actions: [deny(8080)] });
    const { id, deadline } = safe.body.data.transaction;
    expect(await ownRules()).toEqual([denyLine(8080)]);

    expect((await runCli(['restore', 'apply', point.id, ...config])).code).toBe(0);
    expect(await ownRules()).toEqual([denyLine(7070)]);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(deadline) - Date.now()) + 1_500),
    );
    expect(await ownRules()).toEqual([denyLine(7070)]);
    expect(await transaction(id)).toMatchObject({ state: 'rolled_back' });
    expect((await transact({ actions: [{ op: 'delete', position: 1 }], safe_apply: false })).status).toBe(
      201,
    );
  });

  test('lines the model cannot express are refused by name; once named, the lockout check sees them', async () => {
    // SSH and the management port are already closed to new connections: only the
    // hand-added ESTABLISHED accept keeps this session's connections alive.
    const closed = await transact({
      actions: [{ op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp' } }],
      safe_apply: false,
      acknowledge_lockout: true,
    });
    expect(closed.status).toBe(201);
    const handAdded = await addUnmanagedLine(ns);
    const before = await ownRules();
    expect(before).toEqual([handAdded, '-A FIREWARDEN-INPUT -p tcp -j DROP']);
    const dns = {
      op: 'add',
      rule: { direction: 'in', action: 'allow', protocol: 'udp', destination_port: '53' },
    };

    const refused = await transact({ actions: [dns], safe_apply: false });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'FW_UNMANAGED_RULES', details: { lines: [handAdded] } });
    expect(refused.body.error.message).toContain(handAdded);
    expect(await ownRules()).toEqual(before);

    const risky = await transact({ actions: [dns], safe_apply: false, acknowledge_unmanaged: [handAdded] });
    expect(risky.status).toBe(409);
    expect(risky.body.error.code).toBe('FW_LOCKOUT_RISK');
    expect(await ownRules()).toEqual(before);

    const applied = await transact({
      actions: [dns],
      safe_apply: false,
      acknowledge_unmanaged: [handAdded],
      acknowledge_lockout: true,
    });
    expect(applied.status).toBe(201);
    expect(await ownRules()).toEqual([
      '-A FIREWARDEN-INPUT -p tcp -j DROP',
      '-A FIREWARDEN-INPUT -p udp -m udp --dport 53 -j ACCEPT',
    ]);
  });
});
