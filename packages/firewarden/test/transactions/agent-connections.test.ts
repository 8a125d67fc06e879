/**
 * @module Tests: each API request that changes or reads the firewall talks to the agent over one
 * connection, however many operations it needs. `firewarden agent` runs in a sandbox,
 * `firewarden serve` reaches it through a relay that records the operations of each connection.
 * The host's rules are compared before and after.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../backends/support/sandbox.js';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { type ApiAnswer, ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { type AgentBin, startAgentBin } from './support/agent-bin.js';
import { type RecordingRelay, startRecordingRelay } from './support/recording-relay.js';

const denyPort = {
  op: 'add',
  rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '7070' },
};

describe.skipIf(namespaceSkipReason !== null)('one agent connection per API request', () => {
  let hostBefore: string;
  let sandbox: Sandbox;
  let installation: Installation;
  let agent: AgentBin;
  let relay: RecordingRelay;
  let server: RunningServer;
  let admin: ApiClient;

  beforeAll(async () => {
    hostBefore = await hostRules();
    sandbox = await createSandbox();
    installation = (await createInstallation('sqlite'))!;
    await installation.writeConfig({ firewall: { backend: 'iptables' } });
    await installation.createAdmin();
    const config = ['--config', installation.configFile];
    agent = await startAgentBin(sandbox, [
      ...config,
      '--state-dir',
      path.join(installation.dir, 'agent-state'),
    ]);
    relay = await startRecordingRelay(
      path.join(installation.dir, 'relay.sock'),
      path.join(installation.dir, 'agent.sock'),
    );
    server = await startServer(config, { FIREWARDEN_AGENT_SOCKET: relay.socketPath });
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await relay?.close();
    await agent?.stop('SIGTERM');
    await installation?.remove();
    await sandbox?.remove();
    expect(await hostRules()).toBe(hostBefore);
  });

  /** The answer, and the operations of each agent connection the request opened. */
  const connectionsOf = async (request: () => Promise<ApiAnswer>) => {
    relay.clear();
    const answer = await request();
    return { ...answer, connections: relay.connections };
  };

  test('a safe apply, the list while it waits, its confirm, a plain apply and a restore', async () => {
    const safeApply = await connectionsOf(() =>
      admin.post('/api/v1/firewall/transactions', { actions: [denyPort] }),
    );
    expect(safeApply.status).toBe(201);
    expect(safeApply.connections).toEqual([['read_rules', 'begin_safe_apply', 'list_snapshots']]);
    const id = safeApply.body.data.transaction.id as string;

    const listed = await connectionsOf(() => admin.get('/api/v1/firewall/transactions'));
    expect(listed.status).toBe(200);
    expect(listed.connections).toEqual([['status']]);

    const confirmed = await connectionsOf(() => admin.post(`/api/v1/firewall/transactions/${id}/confirm`));
    expect(confirmed.status).toBe(200);
    expect(confirmed.connections).toEqual([['confirm']]);

    const plain = await connectionsOf(() =>
      admin.post('/api/v1/firewall/transactions', {
        actions: [{ op: 'delete', position: 1 }],
        safe_apply: false,
      }),
    );
    expect(plain.status).toBe(201);
    expect(plain.connections).toEqual([['read_rules', 'apply', 'list_snapshots']]);

    const restorePoint = plain.body.data.transaction.restore_point_id as string;
    const restored = await connectionsOf(() =>
      admin.post(`/api/v1/firewall/snapshots/${restorePoint}/restore`),
    );
    expect(restored.status).toBe(200);
    expect(restored.connections).toEqual([['restore', 'list_snapshots']]);
  });
});
