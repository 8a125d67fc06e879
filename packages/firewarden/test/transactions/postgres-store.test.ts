/**
 * @module Tests: the transaction and restore-point records on PostgreSQL (the other suite runs on
 * SQLite): safe apply, a second one refused while the first waits, confirm, an unconfirmed one
 * rolled back by the agent and recorded as such, restore points listed with their kind. The
 * agent bin runs in a network namespace; the host's rules are compared before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { type AgentBin, startAgentBin } from './support/agent-bin.js';

const installation = namespaceSkipReason === null ? await createInstallation('postgres') : null;
if (namespaceSkipReason === null && !installation) console.warn('skipping: PostgreSQL is not reachable');

const rule = (port: number) => ({
  op: 'add',
  rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(port) },
});

describe.skipIf(!installation)('transactions on PostgreSQL', () => {
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let agent: AgentBin;
  let server: RunningServer;
  let admin: ApiClient;
  let viewer: ApiClient;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-transactions-pg-'));
    await chmod(folder, 0o755);
    await installation!.writeConfig({
      agent: { socket_path: path.join(folder, 'agent.sock') },
      firewall: { safe_apply_timeout_seconds: 5 },
    });
    await installation!.createAdmin();
    agent = await startAgentBin(ns.name, [
      '--config',
      installation!.configFile,
      '--state-dir',
      path.join(folder, 'state'),
    ]);
    server = await startServer(['--config', installation!.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
    expect(
      (await admin.post('/api/v1/users', { username: 'watcher', password: adminPassword, role: 'viewer' }))
        .status,
    ).toBe(201);
    viewer = new ApiClient(server.url);
    expect((await viewer.login('watcher', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await agent?.stop('SIGTERM');
    await installation?.remove();
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('CSRF, pending, busy, confirmed, rolled back; restore points by kind; viewers read only', async () => {
    const forged = await admin.post(
      '/api/v1/firewall/transactions',
      { actions: [rule(8080)] },
      { withoutCsrf: true },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('AUTH_CSRF_INVALID');
    const first = await admin.post('/api/v1/firewall/transactions', { actions: [rule(8080)] });
    expect(first.status).toBe(201);
    const id = first.body.data.transaction.id;
    const busy = await admin.post('/api/v1/firewall/transactions', { actions: [rule(8081)] });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({
      code: 'FW_TRANSACTION_PENDING',
      details: { transaction_id: id },
    });
    expect((await viewer.post(`/api/v1/firewall/transactions/${id}/confirm`)).status).toBe(403);
    expect(
      (await admin.post(`/api/v1/firewall/transactions/${id}/confirm`)).body.data.transaction.state,
    ).toBe('confirmed');

    const second = await admin.post('/api/v1/firewall/transactions', { actions: [rule(8081)] });
    expect(second.status).toBe(201);
    const secondId = second.body.data.transaction.id;
    await new Promise((resolve) =>
      setTimeout(resolve, Date.parse(second.body.data.transaction.deadline) - Date.now() + 1_500),
    );
    const detail = await viewer.get(`/api/v1/firewall/transactions/${secondId}`);
    expect(detail.body.data.transaction).toMatchObject({ id: secondId, state: 'rolled_back' });
    const rules = await viewer.get('/api/v1/firewall/rules');
    expect(rules.body.data.rules.map((r: { destination_port: string }) => r.destination_port)).toEqual([
      '8080',
    ]);

    const list = await viewer.get('/api/v1/firewall/transactions?limit=10');
    expect(list.body.data.transactions.map((t: { id: string; state: string }) => [t.id, t.state])).toEqual([
      [secondId, 'rolled_back'],
      [id, 'confirmed'],
    ]);
    // A limit out of range is a value problem (422), one that is no number a shape problem (400), as on every list.
    const outOfRange = await viewer.get('/api/v1/firewall/transactions?limit=0');
    expect([outOfRange.status, outOfRange.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    const notANumber = await viewer.get('/api/v1/firewall/transactions?limit=ten');
    expect([notANumber.status, notANumber.body.error.code]).toEqual([400, 'REQUEST_INVALID']);
    expect((await viewer.get('/api/v1/firewall/transactions/not-an-id')).body.error.code).toBe(
      'FW_TRANSACTION_NOT_FOUND',
    );

    expect((await viewer.post('/api/v1/firewall/snapshots', { name: 'x' })).status).toBe(403);
    const unnamed = await admin.post('/api/v1/firewall/snapshots');
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.data.snapshot).toMatchObject({ kind: 'manual', note: null });
    expect((await admin.post('/api/v1/firewall/snapshots', { name: 'manual one' })).status).toBe(201);
    const points = (await viewer.get('/api/v1/firewall/snapshots')).body.data.snapshots as { kind: string }[];
    expect(points[0]).toMatchObject({ kind: 'manual', note: 'manual one' });
    expect(points.filter((p) => p.kind === 'automatic').length).toBeGreaterThanOrEqual(2);
    expect((await admin.post('/api/v1/firewall/snapshots', { name: 'x', label: 'y' })).status).toBe(400);
  });
});
