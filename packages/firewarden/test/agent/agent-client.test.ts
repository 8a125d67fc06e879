/**
 * @module Tests: the server's client of the agent protocol against the real agent socket (agent
 * in process, commands in a namespace), and its failures as `AgentUnavailable` reasons.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningAgent, runAgent } from '../../src/agent/run-agent.js';
import { AgentUnavailable, callAgent } from '../../src/agent-protocol/agent-client.js';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';

describe('callAgent failures', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-client-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('a missing socket, a silent agent and a garbage answer are AgentUnavailable', async () => {
    await expect(callAgent(path.join(folder, 'none.sock'), 'status')).rejects.toMatchObject({
      reason: 'socket_missing',
    });
    const silentPath = path.join(folder, 'silent.sock');
    const silent = createServer(() => undefined).listen(silentPath);
    await expect(callAgent(silentPath, 'status', {}, { timeoutMs: 300 })).rejects.toMatchObject({
      reason: 'timeout',
    });
    silent.close();
    const garbagePath = path.join(folder, 'garbage.sock');
    const garbage = createServer((socket) => socket.end('not json\n')).listen(garbagePath);
    await expect(callAgent(garbagePath, 'status')).rejects.toBeInstanceOf(AgentUnavailable);
    garbage.close();
  });
});

describe.skipIf(namespaceSkipReason !== null)('callAgent against the agent', () => {
  let ns: Namespace;
  let running: RunningAgent;
  let folder: string;
  let hostBefore: string;
  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-client-agent-'));
    running = await runAgent({
      socketPath: path.join(folder, 'a.sock'),
      stateDir: folder,
      commandPrefix: ns.prefix,
    });
  });
  afterAll(async () => {
    await running?.close();
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('apply and read back through the client; agent errors are answers, not exceptions', async () => {
    const socket = path.join(folder, 'a.sock');
    const rule = {
      direction: 'in',
      action: 'deny',
      protocol: 'udp',
      destination_port: '53',
      source: '192.0.2.0/24',
    };
    expect(await callAgent(socket, 'apply', { rules: [rule] })).toMatchObject({ ok: true });
    expect((await ns.exec(['iptables-save'])).stdout).toContain(
      '-A FIREWARDEN-INPUT -s 192.0.2.0/24 -p udp -m udp --dport 53 -j DROP',
    );
    const read = await callAgent(socket, 'read_rules');
    expect(read).toMatchObject({ ok: true, result: { rules: [{ ...rule, family: 'ipv4' }], unparsed: [] } });
    expect(await callAgent(socket, 'confirm', { transaction_id: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'FW_TRANSACTION_NOT_FOUND' },
    });
  });
});
