/**
 * @module Tests: `/services/ports` sees real listeners (IPv4 and IPv6) with their owning process,
 * `/services/host` describes this machine, and the service registry validates, stores (across a
 * restart), hides project services from non-members and refuses duplicates; through the bin.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Client,
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { createRepo } from './support/git-repo.js';
import { removeScratchDirs } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;
const listeners: net.Server[] = [];

function listen(host: string): Promise<number> {
  const server = net.createServer();
  listeners.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

const ipv6Available = Object.values(os.networkInterfaces()).some((entries) =>
  entries?.some((entry) => entry.family === 'IPv6' && entry.internal),
);

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
});

afterAll(async () => {
  for (const server of listeners) server.close();
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

describe('GET /services/ports', () => {
  test('a listener opened by the test appears with its address, port and this process', async () => {
    const port = await listen('127.0.0.1');
    const answer = await owner.get('/services/ports');
    expect(answer.status).toBe(200);
    const entry = answer.body.ports.find((socket: { port: number }) => socket.port === port);
    expect(entry).toMatchObject({ protocol: 'tcp', address: '127.0.0.1', port, uid: process.getuid!() });
    expect(entry.inode).toBeGreaterThan(0);
    expect(entry.process).toMatchObject({
      pid: process.pid,
      name: readFileSync('/proc/self/comm', 'utf8').trim(),
    });
    expect(entry.process.command).toEqual(
      readFileSync('/proc/self/cmdline', 'utf8').split('\0').filter(Boolean).slice(0, 8),
    );
  });

  test("the daemon's own socket is owned by the daemon's pid", async () => {
    const answer = await owner.get('/services/ports');
    const entry = answer.body.ports.find((socket: { port: number }) => socket.port === daemon.port);
    expect(entry.process.pid).toBe(daemon.child.pid);
    expect(entry.process.command.join(' ')).toContain('cli.js serve');
  });

  test.runIf(ipv6Available)('an IPv6 listener on ::1 is decoded as ::1 (tcp6)', async () => {
    const port = await listen('::1');
    const answer = await owner.get('/services/ports');
    const entry = answer.body.ports.find((socket: { port: number }) => socket.port === port);
    expect(entry).toMatchObject({ protocol: 'tcp6', address: '::1', port });
    expect(entry.process.pid).toBe(process.pid);
  });

  test('a socket that stopped listening is gone; connected sockets are never listed', async () => {
    const port = await listen('127.0.0.1');
    const client = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    const listed = (await owner.get('/services/ports')).body.ports.filter(
      (socket: { port: number }) => socket.port === port,
    );
    expect(listed).toHaveLength(1);
    client.destroy();
    const server = listeners.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const after = (await owner.get('/services/ports')).body.ports;
    expect(after.some((socket: { port: number }) => socket.port === port)).toBe(false);
  });
});

test('GET /services/host describes this machine', async () => {
  const answer = await owner.get('/services/host');
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    hostname: os.hostname(),
    os: { platform: 'linux', type: 'Linux' },
    kernel: { release: os.release() },
    arch: os.arch(),
    cpus: { count: os.cpus().length },
    memory_total_bytes: os.totalmem(),
    daemon: { pid: daemon.child.pid, node_version: process.version },
  });
  expect(answer.body.uptime_secs).toBeGreaterThan(0);
  expect(answer.body.daemon.uptime_secs).toBeGreaterThanOrEqual(0);
});

describe('service registry', () => {
  test('register, list with listening state, refuse a duplicate, delete', async () => {
    const port = await listen('127.0.0.1');
    const created = await owner.post('/services', {
      name: 'web.dev',
      port,
      url: `http://127.0.0.1:${port}/`,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'web.dev', port, project_id: null, listening: true });
    expect(Date.parse(created.body.created_at)).not.toBeNaN();

    const idle = await owner.post('/services', { name: 'db', port: 1 });
    expect(idle.body).toMatchObject({ name: 'db', url: null, listening: false });

    const duplicate = await owner.post('/services', { name: 'web.dev', port: 9 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('SERVICE_EXISTS');

    const listed = (await owner.get('/services')).body.services;
    expect(listed.map((service: { name: string }) => service.name)).toEqual(['db', 'web.dev']);

    expect((await owner.delete('/services/db')).status).toBe(204);
    expect((await owner.delete('/services/db')).status).toBe(404);
    expect((await owner.get('/services')).body.services.map((s: { name: string }) => s.name)).toEqual([
      'web.dev',
    ]);
  });

  test('bad input answers 400 with the offending field', async () => {
    const cases: [unknown, string][] = [
      [{ name: '', port: 80 }, 'name'],
      [{ name: '-x', port: 80 }, 'name'],
      [{ name: 'a/b', port: 80 }, 'name'],
      [{ name: 'x'.repeat(65), port: 80 }, 'name'],
      [{ name: 'ok', port: 0 }, 'port'],
      [{ name: 'ok', port: 65_536 }, 'port'],
      [{ name: 'ok', port: 80.5 }, 'port'],
      [{ name: 'ok', port: '80' }, 'port'],
      [{ name: 'ok', port: 80, url: 'javascript:alert(1)' }, 'url'],
      [{ name: 'ok', port: 80, url: 'http://user:secret@127.0.0.1/' }, 'url'],
      [{ name: 'ok', port: 80, url: 'not a url' }, 'url'],
      [{ name: 'ok', port: 80, project_id: -1 }, 'project_id'],
    ];
    for (const [body, field] of cases) {
      const answer = await owner.post('/services', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(answer.body.error.issues[0].path).toBe(field);
    }
    expect((await owner.post('/services', { name: 'ok', port: 80, project_id: 999_999 })).status).toBe(404);
  });

  test("a project's service is hidden from users who cannot see the project", async () => {
    const repo = await createRepo({ 'README.md': 'x\n' });
    const project = (await owner.post('/projects', { name: 'svc', path: repo })).body.id as number;
    const operator = await userClient(daemon, owner, 'operator1', 'operator');
    expect(
      (await owner.post('/services', { name: 'private-api', port: 4000, project_id: project })).status,
    ).toBe(201);
    const names = async (client: Client) =>
      (await client.get('/services')).body.services.map((s: { name: string }) => s.name);
    expect(await names(operator.client)).not.toContain('private-api');
    expect((await operator.client.delete('/services/private-api')).status).toBe(404);
    expect(
      (await operator.client.post('/services', { name: 'sneaky', port: 4001, project_id: project })).status,
    ).toBe(404);

    await owner.post(`/projects/${project}/members`, { user_id: operator.id, role: 'operator' });
    expect(await names(operator.client)).toContain('private-api');
    expect((await operator.client.delete('/services/private-api')).status).toBe(204);
  });

  test('registrations survive a restart and every change is audited', async () => {
    await owner.post('/services', { name: 'kept', port: 5432 });
    expect(await daemon.stop()).toBe(0);
    daemon = await startDaemon({ dataDir: daemon.dataDir });
    owner = new Client(daemon.url);
    expect((await owner.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
    const kept = (await owner.get('/services')).body.services.find(
      (s: { name: string }) => s.name === 'kept',
    );
    expect(kept).toMatchObject({ port: 5432, url: null });
    const actions = (await owner.get('/audit?limit=500')).body.entries.map(
      (entry: { action: string; outcome: string }) => `${entry.action} ${entry.outcome}`,
    );
    expect(actions).toContain('POST /services success');
    expect(actions).toContain('POST /services failure');
    expect(actions).toContain('DELETE /services/:name success');
  });
});
