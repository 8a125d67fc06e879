/**
 * @module Tests (issue 23, item 9): one role cannot starve another. Through the bin: a viewer's
 * terminal socket that never reads is evicted (close code 4408) instead of pausing the owner's
 * PTY, whose output runs to its end; a developer's terminals stop at the per-user quota (429
 * `TERMINAL_QUOTA_EXCEEDED`) while the owner can still open one; 60 webhook deliveries to a
 * receiver that holds every request open never have more than 8 connections at once, and all
 * arrive once it answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { openSocket } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectId } = await startProjectDaemon('fair', {
    args: ['--allow-private-targets', '--delivery-timeout-ms', '60000', '--delivery-retry-delays-ms', ''],
  }));
});

afterAll(() => stopProjectDaemon(daemon));

async function member(name: string, role: 'viewer' | 'developer') {
  const user = await userClient(daemon, owner, name, role);
  await owner.post(`/projects/${projectId}/members`, { user_id: user.id, role });
  return user;
}

test("a viewer's socket that never reads is evicted with 4408; the owner's terminal runs on", async () => {
  const viewer = await member('stalled-viewer', 'viewer');
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body;
  const stalled = await openSocket(daemon, viewer.client, `/terminals/${terminal.id}/ws`);
  const closedWith = new Promise<[number, string]>((resolve) =>
    stalled.ws.once('close', (code, reason) => resolve([code, reason.toString()])),
  );
  stalled.keepBinary = false;
  stalled.ws.pause();
  const writer = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
  writer.keepBinary = false;
  writer.send({ input: 'head -c 25165824 /dev/zero | tr "\\0" b; echo; echo FAIR-$((6*7))\r' });

  const clients = async () =>
    (await owner.get('/terminals')).body.terminals.find((t: { id: number }) => t.id === terminal.id)
      ?.clients as number;
  let count = await clients();
  for (let i = 0; i < 600 && count !== 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = await clients();
  }
  expect(count).toBe(1);
  stalled.ws.resume();
  expect(await closedWith).toEqual([4408, 'too slow: reconnect to get the scrollback']);
  await writer.until(() => writer.tail.includes('FAIR-42'), 'the end of the output', 90_000);
  await writer.close();
}, 120_000);

test('a developer stops at the per-user terminal quota (429); the owner still gets a terminal', async () => {
  const developer = await member('busy-developer', 'developer');
  const open = (client: Client) => client.post('/terminals', { project_id: projectId, shell: '/bin/sh' });
  const mine: number[] = [];
  for (let i = 0; i < 20; i++) {
    const created = await open(developer.client);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    mine.push(created.body.id);
  }
  const refused = await open(developer.client);
  expect(refused.status).toBe(429);
  expect(refused.body.error).toMatchObject({ code: 'TERMINAL_QUOTA_EXCEEDED', limit: 20 });
  expect((await open(owner)).status).toBe(201);
  expect((await owner.post(`/terminals/${mine[0]}/terminate`)).status).toBe(200);
  expect((await open(developer.client)).status).toBe(201);
}, 60_000);

describe('webhook deliveries', () => {
  let inFlight = 0;
  let maxInFlight = 0;
  let arrived = 0;
  let holding = true;
  const held: http.ServerResponse[] = [];
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      response.on('finish', () => inFlight--);
      if (holding) held.push(response);
      else response.writeHead(204).end();
    });
  });

  beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const waitUntil = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!check()) throw new Error(`timed out waiting for ${what}`);
  };

  test('60 deliveries open at most 8 connections at once, and all of them arrive', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    for (let hook = 0; hook < 12; hook++)
      expect(
        (await owner.post('/webhooks', { name: `fan-${hook}`, url: `${url}/${hook}`, events: ['fan.*'] }))
          .status,
      ).toBe(201);
    for (let event = 0; event < 5; event++)
      expect(
        (await owner.post('/events', { stream: `project:${projectId}`, type: 'fan.out', data: { event } }))
          .status,
      ).toBe(202);
    await waitUntil(() => inFlight >= 8, '8 held deliveries');
    // Room for any delivery beyond the limit to show up while the first 8 are held.
    await new Promise((resolve) => setTimeout(resolve, 500));
    holding = false;
    for (const response of held.splice(0)) response.writeHead(204).end();
    await waitUntil(() => arrived === 60, 'all 60 deliveries');
    expect(maxInFlight).toBe(8);
  }, 60_000);
});
