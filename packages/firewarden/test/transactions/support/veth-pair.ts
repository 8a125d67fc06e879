/**
 * @module Test support: two network namespaces joined by a veth pair, a TCP listener answering
 * "hello" in the managed one, and `knock`, which connects from the other side: "hello" when the
 * port answers, "timeout" when the firewall drops the packets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createNamespace, exec, type Namespace } from '../../engine/support/netns.js';

export interface VethPair {
  /** Where the requests come from. */
  client: Namespace;
  /** Where the firewall is managed and the listener runs. */
  managed: Namespace;
  address: string;
  port: number;
  knock(): Promise<string>;
  remove(): Promise<void>;
}

export async function createVethPair(subnet: string, port: number): Promise<VethPair> {
  const [client, managed] = await Promise.all([createNamespace(), createNamespace()]);
  const address = `${subnet}.2`;
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
    managed.name,
  ]);
  if (link.code !== 0) throw new Error(`veth: ${link.stderr}`);
  for (const [ns, cidr, device] of [
    [client, `${subnet}.1/24`, 'fw-a'],
    [managed, `${address}/24`, 'fw-b'],
  ] as const) {
    await ns.exec(['ip', 'addr', 'add', cidr, 'dev', device]);
    await ns.exec(['ip', 'link', 'set', device, 'up']);
  }
  const listener: ChildProcess = spawn('ip', [
    'netns',
    'exec',
    managed.name,
    process.execPath,
    '-e',
    `require('net').createServer((s) => s.end('hello')).listen(${port}, () => console.log('ready'))`,
  ]);
  await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
  return {
    client,
    managed,
    address,
    port,
    knock: async () =>
      (
        await client.exec([
          process.execPath,
          '-e',
          `const s = require('net').connect(${port}, '${address}');
           s.setTimeout(1500, () => { console.log('timeout'); process.exit(0); });
           s.on('data', (d) => { console.log(String(d)); process.exit(0); });
           s.on('error', (e) => { console.log(e.code); process.exit(0); });`,
        ])
      ).stdout.trim(),
    remove: async () => {
      listener.kill('SIGKILL');
      await Promise.all([client.remove(), managed.remove()]);
    },
  };
}

/** Knocks until the port answers (at most `attempts` times); true when it did. */
export async function answersAgain(pair: VethPair, attempts = 20): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) if ((await pair.knock()) === 'hello') return true;
  return false;
}
