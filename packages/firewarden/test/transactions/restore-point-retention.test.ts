/**
 * @module Tests: `restore_points.retain_automatic` and `retain_manual` take effect, through the
 * bins. `firewarden agent` manages iptables in a network namespace with a config file keeping 4
 * automatic and 3 manual points; `firewarden serve` drives it. The agent alone (no retention in
 * the request) keeps its config file's numbers; `firewarden restore create` sends its own config
 * file's; the server sends its run-time settings (`PUT /api/v1/settings`), lowered ones pruning the
 * oldest points of each kind at the next point created. A pending safe apply's point survives a
 * retention of 1. The server's `restore_points` table marks the points the agent pruned.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { call } from '../agent/support/agent-process.js';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, runCli, startServer } from '../support/running-bin.js';
import { type AgentBin, startAgentBin } from './support/agent-bin.js';

interface Point {
  id: string;
  kind: 'automatic' | 'manual';
  note: string | null;
}

describe.skipIf(namespaceSkipReason !== null)('restore point retention', () => {
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let socketPath: string;
  let installation: Installation;
  let agent: AgentBin;
  let server: RunningServer;
  let admin: ApiClient;
  /** Each apply denies its own port: every transaction changes the rules. */
  let nextPort = 9_100;

  /** The agent's points of one kind, newest first, as the API lists them. */
  const listed = async (kind: Point['kind']) => {
    const answer = await admin.get('/api/v1/firewall/snapshots');
    expect(answer.status).toBe(200);
    return (answer.body.data.snapshots as Point[]).filter((point) => point.kind === kind).map((p) => p.id);
  };
  const createManual = async (name: string) => {
    const answer = await admin.post('/api/v1/firewall/snapshots', { name });
    expect(answer.status).toBe(201);
    return answer.body.data.snapshot.id as string;
  };
  /** A transaction denying a new port; its restore point's id. */
  const apply = async (safeApply: boolean) => {
    const answer = await admin.post('/api/v1/firewall/transactions', {
      actions: [
        {
          op: 'add',
          rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(nextPort++) },
        },
      ],
      safe_apply: safeApply,
    });
    expect(answer.status).toBe(201);
    return answer.body.data.transaction as { id: string; restore_point_id: string; state: string };
  };
  const setRetention = async (restorePoints: Record<string, number>) => {
    const answer = await admin.put('/api/v1/settings', { restore_points: restorePoints });
    expect(answer.status).toBe(200);
  };
  /** The server's `restore_points` rows: id -> `state`. */
  const recorded = () => {
    const db = new Database(installation.sqliteFile, { readonly: true });
    try {
      const rows = db.prepare('SELECT id, state FROM restore_points').all() as {
        id: string;
        state: string;
      }[];
      return new Map(rows.map((row) => [row.id, JSON.parse(row.state) as Record<string, unknown>]));
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-retention-'));
    await chmod(folder, 0o755);
    socketPath = path.join(folder, 'agent.sock');
    installation = (await createInstallation('sqlite'))!;
    await installation.writeConfig({
      agent: { socket_path: socketPath },
      restore_points: { retain_automatic: 4, retain_manual: 3 },
    });
    await installation.createAdmin();
    agent = await startAgentBin(ns.name, [
      '--config',
      installation.configFile,
      '--state-dir',
      path.join(folder, 'state'),
    ]);
    server = await startServer(['--config', installation.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    expect(await agent?.stop('SIGTERM')).toBe(0);
    await installation?.remove();
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('without a retention in the request the agent keeps its config file numbers', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await call(socketPath, 'snapshot', { kind: 'manual', note: `agent ${i}` });
      expect(answer.ok).toBe(true);
      created.push(answer.result.id);
    }
    expect(await listed('manual')).toEqual(created.slice(2).reverse());

    // A retention outside the config file's bounds is refused with nothing created.
    const refused = await call(socketPath, 'snapshot', {
      kind: 'manual',
      retention: { automatic: 0, manual: 1 },
    });
    expect(refused.error).toMatchObject({ code: 'AGENT_REQUEST_INVALID' });
    expect(await listed('manual')).toEqual(created.slice(2).reverse());
  });

  test('`restore create` sends its own config file numbers', async () => {
    // Same socket, another file keeping one manual point.
    const otherConfig = path.join(installation.dir, 'cli.yaml');
    await writeFile(
      otherConfig,
      stringify({
        agent: { socket_path: socketPath },
        database: { sqlite_path: installation.sqliteFile },
        logging: { file_path: installation.logFile },
        restore_points: { retain_manual: 1 },
      }),
    );
    const created = await runCli(['restore', 'create', '--name', 'cli', '--json', '--config', otherConfig]);
    expect(created.code).toBe(0);
    expect(await listed('manual')).toEqual([JSON.parse(created.stdout).snapshot.id]);
  });

  test('retain_manual set through the API keeps the newest manual points, automatic ones untouched', async () => {
    await apply(false);
    await apply(false);
    const automatic = await listed('automatic');
    expect(automatic).toHaveLength(2);
    const before = await listed('manual');

    await setRetention({ retain_manual: 2 });
    const created: string[] = [];
    for (let i = 0; i < 4; i += 1) created.push(await createManual(`api ${i}`));
    expect(await listed('manual')).toEqual(created.slice(2).reverse());
    expect(await listed('automatic')).toEqual(automatic);

    // The server's table keeps a row for every point, the pruned ones marked.
    const rows = recorded();
    for (const id of created.slice(2)) expect(rows.get(id)).toEqual({ kept_by: 'agent' });
    for (const id of [...before, ...created.slice(0, 2)])
      expect(rows.get(id)).toEqual({ pruned_at: expect.any(String) });
  });

  test('retain_automatic set through the API keeps the newest automatic points; lowering it prunes at the next point', async () => {
    const manual = await listed('manual');
    await setRetention({ retain_automatic: 3 });
    const transactions = [];
    for (let i = 0; i < 4; i += 1) transactions.push(await apply(false));
    const newest = transactions.slice(1).map((t) => t.restore_point_id);
    expect(await listed('automatic')).toEqual(newest.reverse());

    // Lowered: nothing goes until the next point is created, then the oldest go.
    await setRetention({ retain_automatic: 2 });
    expect(await listed('automatic')).toHaveLength(3);
    const last = await apply(false);
    expect(await listed('automatic')).toEqual([last.restore_point_id, transactions[3]!.restore_point_id]);
    expect(await listed('manual')).toEqual(manual);

    // A transaction whose point was pruned is still listed with it.
    const answer = await admin.get(`/api/v1/firewall/transactions/${transactions[0]!.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.transaction.restore_point_id).toBe(transactions[0]!.restore_point_id);
    expect(recorded().get(transactions[0]!.restore_point_id)).toEqual({ pruned_at: expect.any(String) });
  });

  test('two applies at once with a retention of 1 are both recorded, naming their points', async () => {
    await setRetention({ retain_automatic: 1 });
    // The agent runs both applies before either server request lists the points: the first
    // point is pruned before its transaction is stored.
    const points = (await Promise.all([apply(false), apply(false)])).map((t) => t.restore_point_id);
    // The agent keeps the later one; listing brings the table to the agent's list.
    const kept = await listed('automatic');
    expect(kept).toHaveLength(1);
    expect(points).toContain(kept[0]);
    const rows = recorded();
    for (const id of points)
      expect(rows.get(id)).toEqual(id === kept[0] ? { kept_by: 'agent' } : { pruned_at: expect.any(String) });
  });

  test("a pending safe apply's point survives a retention of 1", async () => {
    await admin.put('/api/v1/settings', { firewall: { safe_apply_timeout_seconds: 600 } });
    const pending = await apply(true);
    expect(pending.state).toBe('pending');
    await setRetention({ retain_automatic: 1 });
    // The restore takes an automatic point while the safe apply still waits.
    const [manual] = await listed('manual');
    const restored = await admin.post(`/api/v1/firewall/snapshots/${manual}/restore`);
    expect(restored.status).toBe(200);
    expect(await listed('automatic')).toEqual([
      restored.body.data.previous_snapshot_id,
      pending.restore_point_id,
    ]);
    const transaction = await admin.get(`/api/v1/firewall/transactions/${pending.id}`);
    expect(transaction.body.data.transaction.state).toBe('rolled_back');

    // No longer pending: the next point created prunes it.
    await createManual('after the restore');
    expect(await listed('automatic')).toEqual([restored.body.data.previous_snapshot_id]);
  });
});
