/**
 * @module Tests: `GET /api/v1/firewall/status` and `GET /api/v1/firewall/rules` through the built
 * bin read the kernel's state through a real agent (its own process in a network namespace): the
 * rules come from iptables-save, not from the server's store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { type AgentProcess, bundleAgent, call, startAgent } from './support/agent-process.js';

describe.skipIf(namespaceSkipReason !== null)('firewall read routes through the agent', () => {
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let bundle: string;
  let agent: AgentProcess;
  let installation: Installation;
  let server: RunningServer;
  let admin: ApiClient;

  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleAgent();
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-http-agent-'));
    await chmod(folder, 0o755);
    agent = await startAgent(bundle, ns.name, folder);
    installation = (await createInstallation('sqlite'))!;
    await installation.writeConfig({ agent: { socket_path: agent.socketPath } });
    await installation.createAdmin();
    server = await startServer(['--config', installation.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await installation?.remove();
    await agent?.stop('SIGKILL');
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('status and rules reflect what is in the kernel', async () => {
    const empty = await admin.get('/api/v1/firewall/rules');
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ rules: [], unparsed: [], foreign: [] });
    // Changed behind the server's back: the route must show it anyway.
    const rule = {
      direction: 'in',
      action: 'deny',
      protocol: 'tcp',
      destination_port: '8080',
      source: '192.0.2.0/24',
    };
    expect((await call(agent.socketPath, 'apply', { rules: [rule] })).ok).toBe(true);
    await ns.exec(['iptables', '-A', 'FIREWARDEN-INPUT', '-p', 'tcp', '!', '--dport', '22', '-j', 'ACCEPT']);
    const rules = await admin.get('/api/v1/firewall/rules');
    expect(rules.body.data.rules).toEqual([
      expect.objectContaining({
        ...rule,
        family: 'ipv4',
        source_port: 'any',
        interface: null,
        comment: null,
      }),
    ]);
    expect(rules.body.data.unparsed).toEqual(['-A FIREWARDEN-INPUT -p tcp -m tcp ! --dport 22 -j ACCEPT']);
    const status = await admin.get('/api/v1/firewall/status');
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      backend: 'iptables',
      owned_chains_present: true,
      pending_transaction: null,
    });
  });
});
