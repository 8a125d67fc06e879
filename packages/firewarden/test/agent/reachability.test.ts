/**
 * @module Tests: safe apply as a packet sees it. Two namespaces joined by a veth pair, a TCP
 * listener in the agent's namespace, connects from the other. The safe apply is asked for by a
 * separate client process that is then SIGKILLed (standing in for a server that dies during the
 * confirmation window): after the deny the port does not answer, after the agent's own rollback
 * it answers again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createNamespace,
  exec,
  hostRules,
  type Namespace,
  namespaceSkipReason,
} from '../engine/support/netns.js';
import { type AgentProcess, bundleAgent, call, startAgent } from './support/agent-process.js';

const serverAddress = '10.231.7.2';
const port = 8080;

describe.skipIf(namespaceSkipReason !== null)('reachability through a veth pair', () => {
  let hostBefore: string;
  let client: Namespace;
  let server: Namespace;
  let folder: string;
  let bundle: string;
  let agent: AgentProcess;
  let listener: ChildProcess;

  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleAgent();
    [client, server] = await Promise.all([createNamespace(), createNamespace()]);
    const link = await exec([
      'ip',
      '-n',
      client.name,
      'link',
      'add',
      'fw-a',
      'type',
      'veth',
      'peer',
      'name',
      'fw-b',
      'netns',
      server.name,
    ]);
    expect(link.stderr).toBe('');
    for (const [ns, address, device] of [
      [client, '10.231.7.1/24', 'fw-a'],
      [server, `${serverAddress}/24`, 'fw-b'],
    ] as const) {
      expect((await ns.exec(['ip', 'addr', 'add', address, 'dev', device])).code).toBe(0);
      expect((await ns.exec(['ip', 'link', 'set', device, 'up'])).code).toBe(0);
    }
    listener = spawn('ip', [
      'netns',
      'exec',
      server.name,
      process.execPath,
      '-e',
      `require('net').createServer((s) => s.end('hello')).listen(${port}, () => console.log('ready'))`,
    ]);
    await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
    folder = mkdtempSync(path.join(tmpdir(), 'fw-reach-'));
    await chmod(folder, 0o755);
    agent = await startAgent(bundle, server.name, folder);
  });
  afterAll(async () => {
    await agent?.stop('SIGKILL');
    listener?.kill('SIGKILL');
    await Promise.all([client?.remove(), server?.remove()]);
    rmSync(folder, { recursive: true, force: true });
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  /** "hello" when the listener answered, "timeout" when the packets were dropped. */
  const knock = async () =>
    (
      await client.exec([
        process.execPath,
        '-e',
        `const s = require('net').connect(${port}, '${serverAddress}');
         s.setTimeout(1500, () => { console.log('timeout'); process.exit(0); });
         s.on('data', (d) => { console.log(String(d)); process.exit(0); });
         s.on('error', (e) => { console.log(e.code); process.exit(0); });`,
      ])
    ).stdout.trim();

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
    let reopened = false;
    for (let attempt = 0; attempt < 20 && !reopened; attempt += 1) reopened = (await knock()) === 'hello';
    expect(reopened).toBe(true);
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
  });
});
