/**
 * @module Test support: Docker's published port without Docker. The sandbox plays the Docker host:
 * Docker's chains (`DOCKER-USER` first in FORWARD, `DOCKER` accepting the container's port), a
 * bridge-side veth to a second namespace playing the container (172.31.7.2 listening on 80), and
 * the DNAT Docker writes for `-p 8080:80`. A third namespace is the outside client, on another
 * veth (10.231.27.0/24); `knock` connects from it to the host's 8080 (bounded: 1.5 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { createNamespace, exec, type Namespace } from '../../engine/support/netns.js';
import type { Sandbox } from './sandbox.js';

export interface PublishedPort {
  knock(): Promise<string>;
  remove(): Promise<void>;
}

const hostAddress = '10.231.27.1';
const clientAddress = '10.231.27.2';
const containerAddress = '172.31.7.2';

async function link(a: Namespace, aName: string, b: Namespace, bName: string): Promise<void> {
  const made = await exec([
    'ip',
    '-n',
    a.name,
    'link',
    'add',
    aName,
    'type',
    'veth',
    'peer',
    'name',
    bName,
    'netns',
    b.name,
  ]);
  expect(made.code).toBe(0);
}

async function must(ns: Pick<Namespace, 'exec'>, argv: string[]): Promise<void> {
  const result = await ns.exec(argv);
  if (result.code !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
}

export async function publishContainerPort(sandbox: Sandbox): Promise<PublishedPort> {
  const [client, container] = await Promise.all([createNamespace(), createNamespace()]);
  const host = sandbox.ns;
  await link(client, 'fw-out', host, 'fw-wan');
  await link(container, 'eth0', host, 'veth-ctr');
  for (const [ns, cidr, device] of [
    [client, `${clientAddress}/24`, 'fw-out'],
    [host, `${hostAddress}/24`, 'fw-wan'],
    [host, '172.31.7.1/24', 'veth-ctr'],
    [container, `${containerAddress}/24`, 'eth0'],
  ] as const) {
    await must(ns, ['ip', 'addr', 'add', cidr, 'dev', device]);
    await must(ns, ['ip', 'link', 'set', device, 'up']);
  }
  await must(container, ['ip', 'route', 'add', 'default', 'via', '172.31.7.1']);
  await must(client, ['ip', 'route', 'add', '172.31.7.0/24', 'via', hostAddress]);
  await must(host, ['sysctl', '-qw', 'net.ipv4.ip_forward=1']);
  for (const argv of [
    ['iptables', '-N', 'DOCKER'],
    ['iptables', '-N', 'DOCKER-USER'],
    ['iptables', '-A', 'DOCKER-USER', '-j', 'RETURN'],
    ['iptables', '-P', 'FORWARD', 'DROP'],
    ['iptables', '-A', 'FORWARD', '-j', 'DOCKER-USER'],
    [
      'iptables',
      '-A',
      'FORWARD',
      '-o',
      'veth-ctr',
      '-m',
      'conntrack',
      '--ctstate',
      'RELATED,ESTABLISHED',
      '-j',
      'ACCEPT',
    ],
    ['iptables', '-A', 'FORWARD', '-o', 'veth-ctr', '-j', 'DOCKER'],
    ['iptables', '-A', 'FORWARD', '-i', 'veth-ctr', '-j', 'ACCEPT'],
    [
      'iptables',
      '-A',
      'DOCKER',
      '-d',
      `${containerAddress}/32`,
      '!',
      '-i',
      'veth-ctr',
      '-o',
      'veth-ctr',
      '-p',
      'tcp',
      '-m',
      'tcp',
      '--dport',
      '80',
      '-j',
      'ACCEPT',
    ],
    ['iptables', '-t', 'nat', '-N', 'DOCKER'],
    ['iptables', '-t', 'nat', '-A', 'PREROUTING', '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', 'DOCKER'],
    [
      'iptables',
      '-t',
      'nat',
      '-A',
      'DOCKER',
      '!',
      '-i',
      'veth-ctr',
      '-p',
      'tcp',
      '-m',
      'tcp',
      '--dport',
      '8080',
      '-j',
      'DNAT',
      '--to-destination',
      `${containerAddress}:80`,
    ],
  ]) {
    await must(sandbox, argv);
  }
  const listener: ChildProcess = spawn('ip', [
    'netns',
    'exec',
    container.name,
    process.execPath,
    '-e',
    `require('net').createServer((s) => s.end('hello')).listen(80, () => console.log('ready'))`,
  ]);
  await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
  return {
    knock: async () =>
      (
        await client.exec([
          process.execPath,
          '-e',
          `const s = require('net').connect(8080, '${hostAddress}');
           s.setTimeout(1500, () => { console.log('timeout'); process.exit(0); });
           s.on('data', (d) => { console.log(String(d)); process.exit(0); });
           s.on('error', (e) => { console.log(e.code); process.exit(0); });`,
        ])
      ).stdout.trim(),
    remove: async () => {
      listener.kill('SIGKILL');
      await Promise.all([client.remove(), container.remove()]);
    },
  };
}
