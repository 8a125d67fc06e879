/**
 * @module Test support: real traffic into a sandbox from two source addresses. A second namespace
 * is linked to the sandbox by a veth (sandbox 10.232.0.1, client 10.232.0.2 and 10.232.0.3); a
 * TCP listener runs in the sandbox on 7070, and `knock(source)` connects to it from one client
 * address (bounded: 1.5 s), answering `hello`, `timeout` or the error code.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createNamespace, exec } from '../../engine/support/netns.js';
import type { Sandbox } from './sandbox.js';

export const sandboxAddress = '10.232.0.1';
export const clientAddresses = ['10.232.0.2', '10.232.0.3'] as const;
export const listenerPort = 7070;

export interface TwoSourceClient {
  knock(source: string): Promise<string>;
  remove(): Promise<void>;
}

export async function twoSourceClient(sandbox: Sandbox): Promise<TwoSourceClient> {
  const client = await createNamespace();
  const must = async (argv: string[]) => {
    const result = await exec(argv);
    if (result.code !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
  };
  await must([
    'ip',
    '-n',
    client.name,
    'link',
    'add',
    'fw-cl',
    'type',
    'veth',
    'peer',
    'name',
    'fw-sb',
    'netns',
    sandbox.ns.name,
  ]);
  await must(['ip', '-n', sandbox.ns.name, 'addr', 'add', `${sandboxAddress}/24`, 'dev', 'fw-sb']);
  await must(['ip', '-n', sandbox.ns.name, 'link', 'set', 'fw-sb', 'up']);
  for (const address of clientAddresses) {
    await must(['ip', '-n', client.name, 'addr', 'add', `${address}/24`, 'dev', 'fw-cl']);
  }
  await must(['ip', '-n', client.name, 'link', 'set', 'fw-cl', 'up']);
  const listener: ChildProcess = spawn('ip', [
    'netns',
    'exec',
    sandbox.ns.name,
    process.execPath,
    '-e',
    `require('net').createServer((s) => s.end('hello')).listen(${listenerPort}, () => console.log('ready'))`,
  ]);
  await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
  return {
    knock: async (source) =>
      (
        await client.exec([
          process.execPath,
          '-e',
          `const s = require('net').connect({ port: ${listenerPort}, host: '${sandboxAddress}', localAddress: '${source}' });
           s.setTimeout(1500, () => { console.log('timeout'); process.exit(0); });
           s.on('data', (d) => { console.log(String(d)); process.exit(0); });
           s.on('error', (e) => { console.log(e.code); process.exit(0); });`,
        ])
      ).stdout.trim(),
    remove: async () => {
      listener.kill('SIGKILL');
      await client.remove();
    },
  };
}
