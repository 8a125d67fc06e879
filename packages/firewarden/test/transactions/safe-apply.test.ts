/**
 * @module Tests: transactions and restore points end to end, through the bins. `firewarden agent`
 * runs in a network namespace joined to another by a veth pair and manages iptables there;
 * `firewarden serve` drives it over the agent socket. A deny applied through HTTP cuts the port;
 * with `serve` SIGKILLed during the confirmation window the agent alone opens it again, and the
 * restarted server records the rollback. A confirmed change stays past its deadline. A restore
 * point restored through HTTP and through the CLI brings iptables back. The host's rules are
 * compared before and after.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, type Installation } from '../support/installation.js';
import { type RunningServer, runCli, startServer } from '../support/running-bin.js';
import type { AgentBin } from './support/agent-bin.js';
import { startVethAgent, type VethAgent } from './support/veth-agent.js';
import { answersAgain, type VethPair } from './support/veth-pair.js';

const port = 8080;
const denyPort = {
  op: 'add',
  rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(port) },
};
/** The shortest safe-apply window the config accepts. */
const timeoutSeconds = 5;

describe.skipIf(namespaceSkipReason !== null)('transactions and restore points through the bins', () => {
  let hostBefore: string;
  let setUp: VethAgent;
  let pair: VethPair;
  let folder: string;
  let agent: AgentBin;
  let installation: Installation;
  let server: RunningServer;
  let admin: ApiClient;

  const signIn = async () => {
    server = await startServer(['--config', installation.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  };
  /** The filter table without the timestamp comments and packet counters, which change on their own. */
  const saved = async () =>
    (await pair.managed.exec(['iptables-save', '-t', 'filter'])).stdout
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .map((line) => line.replace(/ \[\d+:\d+\]$/, ''))
      .join('\n');
  const ownChain = async () =>
    (await saved())
      .split('\n')
      .filter((line) => line.startsWith('-A FIREWARDEN-INPUT'))
      .join('\n');
  const auditActions = async () =>
    (await admin.get('/api/v1/audit?limit=500')).body.data.entries as {
      action: string;
      outcome: string;
      target: string;
    }[];
  const notificationCodes = async () =>
    ((await admin.get('/api/v1/notifications?limit=200')).body.data.items as { code: string }[]).map(
      (n) => n.code,
    );

  beforeAll(async () => {
    hostBefore = await hostRules();
    setUp = await startVethAgent('10.231.9', port, timeoutSeconds);
    ({ pair, folder, agent, installation } = setUp);
    await signIn();
  });
  afterAll(async () => {
    await server?.stop();
    expect(await setUp?.remove()).toBe(0);
    expect(await hostRules()).toBe(hostBefore);
  });

  test('the agent bin prints where it listens and the backend it chose', () => {
    expect(agent.output()).toContain(
      `firewarden agent listening on unix:${path.join(folder, 'agent.sock')} (backend iptables,`,
    );
  });

  test('invalid actions are refused with every path, and nothing changes', async () => {
    const before = await saved();
    const answer = await admin.post('/api/v1/firewall/transactions', {
      actions: [
        { op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp', source: '300.1.1.1' } },
        { op: 'explode' },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('FW_VALIDATION_FAILED');
    expect(answer.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual([
      'actions.0.rule.source',
      'actions.1.op',
    ]);
    expect((await admin.post('/api/v1/firewall/transactions', { actions: [], extra: 1 })).status).toBe(400);
    expect(await saved()).toBe(before);
  });

  test('a change that cuts SSH and the management port from this session is refused unless acknowledged', async () => {
    const before = await saved();
    const denyAllTcp = { op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp' } };
    const refused = await admin.post('/api/v1/firewall/transactions', { actions: [denyAllTcp] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('FW_LOCKOUT_RISK');
    expect(refused.body.error.details.conflicts.map((c: { code: string }) => c.code)).toEqual([
      'SSH_LOCKOUT_RISK',
      'MANAGEMENT_PORT_LOCKOUT',
    ]);
    expect(refused.body.error.details.conflicts[1].message).toContain(`tcp/${server.port}`);
    expect(await saved()).toBe(before);
    const entry = (await auditActions()).find((e) => e.action === 'POST /api/v1/firewall/transactions');
    expect(entry).toMatchObject({ outcome: 'rejected' });

    // Acknowledged: applied (then confirmed away by the next test's restore of a clean point).
    const acknowledged = await admin.post('/api/v1/firewall/transactions', {
      actions: [denyAllTcp],
      acknowledge_lockout: true,
      safe_apply: false,
    });
    expect(acknowledged.status).toBe(201);
    expect(acknowledged.body.data.transaction).toMatchObject({ state: 'applied', deadline: null });
    expect(await ownChain()).toBe('-A FIREWARDEN-INPUT -p tcp -j DROP');
    const undo = await admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'delete', position: 1 }],
      safe_apply: false,
    });
    expect(undo.status).toBe(201);
    expect(await ownChain()).toBe('');
  });

  test('serve SIGKILLed during the window: the agent alone rolls back, the restarted server records it', async () => {
    expect(await pair.knock()).toBe('hello');
    const applied = await admin.post('/api/v1/firewall/transactions', { actions: [denyPort] });
    expect(applied.status).toBe(201);
    const transaction = applied.body.data.transaction;
    expect(transaction).toMatchObject({ state: 'pending', restore_point_id: expect.any(String) });
    const window = Date.parse(transaction.deadline) - Date.parse(transaction.created_at);
    expect(window).toBeGreaterThan((timeoutSeconds - 1) * 1_000);
    expect(window).toBeLessThanOrEqual(timeoutSeconds * 1_000 + 1_000);
    expect(await pair.knock()).toBe('timeout');
    expect(await ownChain()).toBe('-A FIREWARDEN-INPUT -p tcp -m tcp --dport 8080 -j DROP');

    server.child.kill('SIGKILL');
    await server.stop();
    expect(await answersAgain(pair)).toBe(true);
    expect(await ownChain()).toBe('');

    await signIn();
    const after = await admin.get(`/api/v1/firewall/transactions/${transaction.id}`);
    expect(after.body.data.transaction).toMatchObject({ id: transaction.id, state: 'rolled_back' });
    const trail = await auditActions();
    expect(trail.filter((e) => e.target === transaction.id).map((e) => e.action)).toEqual([
      'firewall.transaction.rollback',
      'firewall.transaction.apply',
    ]);
    expect(await notificationCodes()).toContain('FW_TRANSACTION_ROLLED_BACK');
    const late = await admin.post(`/api/v1/firewall/transactions/${transaction.id}/confirm`);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: 'FW_TRANSACTION_NOT_PENDING',
      details: { state: 'rolled_back' },
    });
  });

  test('a confirmed transaction keeps its rule after the deadline', async () => {
    const applied = await admin.post('/api/v1/firewall/transactions', { actions: [denyPort] });
    expect(applied.status).toBe(201);
    const { id, deadline } = applied.body.data.transaction;
    const confirmed = await admin.post(`/api/v1/firewall/transactions/${id}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.transaction).toMatchObject({ id, state: 'confirmed' });
    // Past the deadline the agent would have rolled back; confirmed, it must not.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(deadline) - Date.now()) + 1_500),
    );
    expect(await pair.knock()).toBe('timeout');
    expect(await ownChain()).toBe('-A FIREWARDEN-INPUT -p tcp -m tcp --dport 8080 -j DROP');
    const list = await admin.get('/api/v1/firewall/transactions');
    expect(list.body.data.transactions[0]).toMatchObject({ id, state: 'confirmed' });
    expect(
      (await auditActions()).some((e) => e.action === 'firewall.transaction.confirm' && e.target === id),
    ).toBe(true);
    expect(await notificationCodes()).toContain('FW_TRANSACTION_CONFIRMED');
    expect((await admin.post(`/api/v1/firewall/transactions/${id}/confirm`)).body.error.code).toBe(
      'FW_TRANSACTION_NOT_PENDING',
    );
  });

  test('a restore point restored through HTTP brings back its iptables state', async () => {
    const withDeny = await saved();
    const created = await admin.post('/api/v1/firewall/snapshots', { name: 'deny 8080' });
    expect(created.status).toBe(201);
    const point = created.body.data.snapshot;
    expect(point).toMatchObject({
      kind: 'manual',
      note: 'deny 8080',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const rulesAtPoint = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
    expect(rulesAtPoint).toHaveLength(1);

    const opened = await admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'delete', position: 1 }],
      safe_apply: false,
    });
    expect(opened.status).toBe(201);
    expect(await pair.knock()).toBe('hello');

    // The point's rules, in the shape of the rules list, while the rules in force differ: a
    // viewer may read them as they read the list of points.
    expect(
      (await admin.post('/api/v1/users', { username: 'watcher', password: adminPassword, role: 'viewer' }))
        .status,
    ).toBe(201);
    const viewer = new ApiClient(server.url);
    expect((await viewer.login('watcher', adminPassword)).status).toBe(200);
    const read = await viewer.get(`/api/v1/firewall/snapshots/${point.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      snapshot: point,
      backend: 'iptables',
      rules: rulesAtPoint,
      unparsed: [],
    });
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toEqual([]);
    const unknownPoint = await viewer.get('/api/v1/firewall/snapshots/00000000-0000-0000-0000-000000000000');
    expect(unknownPoint.status).toBe(404);
    expect(unknownPoint.body.error.code).toBe('FW_SNAPSHOT_NOT_FOUND');
    expect((await viewer.get('/api/v1/firewall/snapshots/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await new ApiClient(server.url).get(`/api/v1/firewall/snapshots/${point.id}`)).status).toBe(401);

    const restored = await admin.post(`/api/v1/firewall/snapshots/${point.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ restored: point.id, hash: point.hash });
    expect(await saved()).toBe(withDeny);
    expect(await pair.knock()).toBe('timeout');

    const list = (await admin.get('/api/v1/firewall/snapshots')).body.data.snapshots;
    expect(list[0]).toMatchObject({ id: restored.body.data.previous_snapshot_id, kind: 'automatic' });
    expect(list.find((s: { id: string }) => s.id === point.id)).toMatchObject({
      kind: 'manual',
      hash: point.hash,
    });
    expect((await auditActions()).map((e) => e.action)).toEqual(
      expect.arrayContaining(['firewall.snapshot.create', 'firewall.snapshot.restore']),
    );
    expect(await notificationCodes()).toContain('FW_SNAPSHOT_RESTORED');

    const missing = await admin.post(
      '/api/v1/firewall/snapshots/00000000-0000-0000-0000-000000000000/restore',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('FW_SNAPSHOT_NOT_FOUND');
    expect((await admin.post('/api/v1/firewall/snapshots/..%2F..%2Fetc/restore')).status).toBe(404);
  });

  test('restore create, list and apply through the CLI', async () => {
    const config = ['--config', installation.configFile];
    const created = await runCli(['restore', 'create', '--name', 'from the cli', '--json', ...config]);
    expect(created.code).toBe(0);
    const point = JSON.parse(created.stdout).snapshot;
    expect(point).toMatchObject({ kind: 'manual', note: 'from the cli' });
    const withDeny = await ownChain();

    await admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'delete', position: 1 }],
      safe_apply: false,
    });
    expect(await ownChain()).toBe('');

    const listed = await runCli(['restore', 'list', '--json', ...config]);
    expect(listed.code).toBe(0);
    const points = JSON.parse(listed.stdout).snapshots as { id: string; kind: string }[];
    expect(points.find((p) => p.id === point.id)).toMatchObject({ kind: 'manual' });
    expect(points.some((p) => p.kind === 'automatic')).toBe(true);
    const text = await runCli(['restore', 'list', ...config]);
    expect(text.stdout).toMatch(new RegExp(`^${point.id}\\s+manual\\s+`, 'm'));

    const applied = await runCli(['restore', 'apply', point.id, ...config]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`restored ${point.id}`);
    expect(await ownChain()).toBe(withDeny);

    const unknown = await runCli(['restore', 'apply', 'nope', '--json', ...config]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('FW_SNAPSHOT_NOT_FOUND');
  });
});
