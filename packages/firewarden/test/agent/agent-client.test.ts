/**
 * @module Tests: the server's client of the agent protocol against the real agent socket (agent
 * in process, commands in a namespace), several questions over one connection, and its failures
 * as `AgentUnavailable` reasons.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningAgent, runAgent } from '../../src/agent/run-agent.js';
import { AgentConnection, AgentUnavailable, callAgent } from '../../src/agent-protocol/agent-client.js';
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

  test('an AgentConnection asks one question after another over one connection', async () => {
    const socketPath = path.join(folder, 'echo.sock');
    const received: string[][] = [];
    // Answers each request line with its op; `status` once more closes the connection.
    const echo = createServer((socket) => {
      const ops: string[] = [];
      received.push(ops);
      let unfinished = '';
      socket.on('data', (chunk) => {
        const lines = (unfinished + chunk.toString('utf8')).split('\n');
        unfinished = lines.pop()!;
        for (const line of lines) {
          const { op } = JSON.parse(line) as { op: string };
          ops.push(op);
          if (op === 'status' && ops.length > 1) socket.end();
          else socket.write(`${JSON.stringify({ ok: true, result: op })}\n`);
        }
      });
    }).listen(socketPath);
    const connection = new AgentConnection(socketPath);
    expect(await connection.call('read_rules')).toEqual({ ok: true, result: 'read_rules' });
    expect(await connection.call('list_snapshots')).toEqual({ ok: true, result: 'list_snapshots' });
    // Closed by the agent before answering: this call and every later one fail.
    await expect(connection.call('status')).rejects.toMatchObject({ reason: 'bad_answer' });
    await expect(connection.call('read_rules')).rejects.toBeInstanceOf(AgentUnavailable);
    connection.close();
    expect(received).toEqual([['read_rules', 'list_snapshots', 'status']]);
    echo.close();
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
