/**
 * @module Tests: exposure through the bins. In the agent's namespace a process listens on
 * loopback, on all addresses with no rule, behind a deny, behind an allow limited to 10.0.0.0/8
 * before a deny, and on UDP. `GET /api/v1/firewall/exposure` and `firewarden status --exposure`
 * (`--json` and the table) answer each socket with its process, its exposure and the positions of
 * our rules on its port, from /proc/net read by the agent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { procAddress } from '../../src/agent/listening-sockets.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { runCli } from '../support/running-bin.js';
import { sandboxedInstallationForFile } from './support/sandboxed-installation.js';

const listeners = `
const net = require('net');
net.createServer().listen(7101, '127.0.0.1');
for (const port of [7102, 7103, 7104]) net.createServer().listen(port, '0.0.0.0');
require('dgram').createSocket('udp4').bind(7105, '0.0.0.0', () => console.log('ready'));
`;

const rule = (action: string, port: string, source = 'any') => ({
  op: 'add',
  rule: { direction: 'in', action, protocol: 'tcp', destination_port: port, source },
});

const expected = [
  {
    protocol: 'tcp',
    address: '127.0.0.1',
    port: 7101,
    process: 'node',
    exposure: 'loopback_only',
    rules: [],
  },
  { protocol: 'tcp', address: '0.0.0.0', port: 7102, process: 'node', exposure: 'exposed', rules: [] },
  { protocol: 'tcp', address: '0.0.0.0', port: 7103, process: 'node', exposure: 'blocked', rules: [1] },
  { protocol: 'tcp', address: '0.0.0.0', port: 7104, process: 'node', exposure: 'partly', rules: [2, 3] },
  { protocol: 'udp', address: '0.0.0.0', port: 7105, process: 'node', exposure: 'exposed', rules: [] },
];

test('/proc/net addresses are decoded (IPv4 little-endian, IPv6 by word, shortest form)', () => {
  expect(procAddress('0100007F', 'ipv4')).toBe('127.0.0.1');
  expect(procAddress('00000000000000000000000001000000', 'ipv6')).toBe('::1');
  expect(procAddress('00000000000000000000000000000000', 'ipv6')).toBe('::');
  expect(procAddress('B80D0120000000000000000001000000', 'ipv6')).toBe('2001:db8::1');
});

describe.skipIf(namespaceSkipReason !== null)('exposure through the API and the CLI', () => {
  let listener: ChildProcess;
  const file = sandboxedInstallationForFile({ backend: 'iptables' });

  beforeAll(async () => {
    listener = spawn('ip', ['netns', 'exec', file.sandbox.ns.name, process.execPath, '-e', listeners]);
    await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
    const applied = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [rule('deny', '7103'), rule('allow', '7104', '10.0.0.0/8'), rule('deny', '7104')],
      safe_apply: false,
    });
    expect(applied.status).toBe(201);
  });
  afterAll(() => {
    listener?.kill('SIGKILL');
  });

  const ours = (sockets: { port: number }[]) => sockets.filter((s) => s.port >= 7101 && s.port <= 7105);

  test('GET /api/v1/firewall/exposure classifies every listening socket', async () => {
    const answer = await file.host.admin.get('/api/v1/firewall/exposure');
    expect(answer.status).toBe(200);
    expect(ours(answer.body.data.sockets)).toEqual(expected);
  });

  test('firewarden status --exposure prints the same, as JSON and as a table', async () => {
    const json = await runCli(['status', '--exposure', '--json', ...file.host.config]);
    expect(json.code).toBe(0);
    expect(ours(JSON.parse(json.stdout).sockets)).toEqual(expected);
    const text = await runCli(['status', '--exposure', ...file.host.config]);
    expect(text.code).toBe(0);
    const line = text.stdout.split('\n').find((l) => /\b7104\b/.test(l));
    expect(line?.split(/\s+/)).toEqual(['tcp', '0.0.0.0', '7104', 'node', 'partly', '2,3']);
  });
});
