/**
 * @module Tests: safe apply as a packet sees it. Two namespaces joined by a veth pair, a TCP
 * listener in the agent's namespace, connects from the other. The safe apply is asked for by a
 * separate client process that is then SIGKILLed (standing in for a server that dies during the
 * confirmation window): after the deny the port does not answer, after the agent's own rollback
 * it answers again.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { answersAgain, createVethPair, type VethPair } from '../transactions/support/veth-pair.js';
import { type AgentProcess, bundleAgent, call, startAgent } from './support/agent-process.js';

const port = 8080;

describe.skipIf(namespaceSkipReason !== null)('reachability through a veth pair', () => {
  let hostBefore: string;
  let pair: VethPair;
  let folder: string;
  let bundle: string;
  let agent: AgentProcess;

  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleAgent();
    pair = await createVethPair('10.231.7', port);
    folder = mkdtempSync(path.join(tmpdir(), 'fw-reach-'));
    await chmod(folder, 0o755);
    agent = await startAgent(bundle, pair.managed.name, folder);
  });
  afterAll(async () => {
    await agent?.stop('SIGKILL');
    await pair?.remove();
    rmSync(folder, { recursive: true, force: true });
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  const knock = () => pair.knock();

  test('a deny cuts the port; without a confirm the agent alone opens it again', async () => {
    expect(await knock()).toBe('hello');
    // The requester: asks for the safe apply, reports the answer, then is killed.
    const request = JSON.stringify({
      id: 1,
      op: 'begin_safe_apply',
      params: {
        rules: [{ direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(port) }],
        timeout_seconds: 6,
      },
    });
    const requester = spawn(process.execPath, [
      '-e',
      `const s = require('net').connect(${JSON.stringify(agent.socketPath)});
       s.on('data', (d) => process.stdout.write(d));
       s.write(${JSON.stringify(`${request}\n`)});
       setInterval(() => {}, 1000);`,
    ]);
    const answer = await new Promise<string>((resolve) =>
      requester.stdout!.once('data', (d) => resolve(String(d))),
    );
    expect(JSON.parse(answer)).toMatchObject({ ok: true });
    requester.kill('SIGKILL');

    expect(await knock()).toBe('timeout');
    expect(await answersAgain(pair)).toBe(true);
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
  });
});
