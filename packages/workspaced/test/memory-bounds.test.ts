/**
 * @module Tests (issue 23, item 5): memory is bounded in bytes, not frames. Through the bin: an
 * event socket that stops reading while 400 custom events of ~64 KiB marked `critical` are
 * published gets a `stream_overflow` notice and far fewer events (a client's `critical` is a
 * priority, not a licence to grow the queue); a session holds at most 16 sockets (the 17th
 * upgrade answers 429 `TOO_MANY_SOCKETS`); at most 4 reads of files over 1 MiB run at once, 2 per
 * user, while their answers are unread (then 503 `TOO_MANY_LARGE_READS` with `Retry-After`).
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, type RunningDaemon, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { openSocket, rawUpgrade, type SocketClient } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectDir: string;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectDir, projectId } = await startProjectDaemon('memory'));
});

afterAll(() => stopProjectDaemon(daemon));

test("an event socket that stops reading: a client's critical events are dropped past the byte bound", async () => {
  const socket = await openSocket(daemon, owner, '/ws');
  socket.send({ op: 'hello' });
  socket.send({ op: 'sub', stream: `project:${projectId}` });
  await socket.until(() => socket.messages.find((m) => m.op === 'subscribed'), 'subscribed');
  socket.ws.pause();
  const padding = 'x'.repeat(63 * 1024);
  const total = 400; // 25 MiB of frames: far beyond the 4 MiB bound and the kernel's buffers.
  for (let i = 0; i < total; i++) {
    const published = await owner.post('/events', {
      stream: `project:${projectId}`,
      type: 'load.big',
      data: { i, padding },
      critical: true,
    });
    expect(published.status).toBe(202);
  }
  socket.ws.resume();
  const notice = await socket.until(
    () => socket.messages.find((m) => m.op === 'stream_overflow'),
    'overflow notice',
    60_000,
  );
  expect(notice.stream).toBe(`project:${projectId}`);
  const last = (await owner.post('/events', { stream: `project:${projectId}`, type: 'load.done' })).body.seq;
  await socket.until(() => socket.messages.find((m) => m.seq === last), 'the event after the overflow');
  const received = socket.messages.filter((m) => m.type === 'load.big');
  expect(received.length).toBeLessThan(total);
  expect(received.every((m) => m.critical === true)).toBe(true);
  await socket.close();
}, 120_000);

describe('sockets per session', () => {
  test('a session holds at most 16 sockets: the 17th upgrade answers 429 TOO_MANY_SOCKETS', async () => {
    const user = await userClient(daemon, owner, 'many-tabs', 'developer');
    const headers = () => ({
      host: `127.0.0.1:${daemon.port}`,
      origin: daemon.url,
      cookie: user.client.cookie!,
    });
    const open: SocketClient[] = [];
    for (let i = 0; i < 16; i++) open.push(await openSocket(daemon, user.client, '/ws'));
    const refused = await rawUpgrade(daemon, '/ws', headers());
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.code).toBe('TOO_MANY_SOCKETS');
    // Another session of the same user has its own count.
    const other = new Client(daemon.url);
    expect(
      (await other.post('/login', { username: 'many-tabs', password: 'many-tabs password 123' })).status,
    ).toBe(200);
    const elsewhere = await openSocket(daemon, other, '/ws');
    // Closing one frees its place.
    await open.pop()!.close();
    let again = await rawUpgrade(daemon, '/ws', headers());
    for (let i = 0; i < 50 && again.status !== 101; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await rawUpgrade(daemon, '/ws', headers());
    }
    expect(again.status).toBe(101);
    await Promise.all([...open, elsewhere].map((socket) => socket.close()));
  });
});

describe('large file reads', () => {
  const bigFile = 'big.txt';
  const readers: Client[] = [];

  beforeAll(async () => {
    // Quotes double in JSON: each answer is about 20 MiB, far more than a socket buffers.
    await writeFile(path.join(projectDir, bigFile), '"'.repeat(10 * 1024 * 1024 - 1024));
    await writeFile(path.join(projectDir, 'small.txt'), 'small');
    for (const name of ['reader-1', 'reader-2', 'reader-3']) {
      const user = await userClient(daemon, owner, name, 'viewer');
      await owner.post(`/projects/${projectId}/members`, { user_id: user.id, role: 'viewer' });
      readers.push(user.client);
    }
  });

  const read = (client: Client, file = bigFile) =>
    client.get(`/projects/${projectId}/files/read?path=${file}`);

  /** A read whose answer is never consumed: resolves once the status line arrived. */
  function unreadRead(client: Client): Promise<{ status: number; request: http.ClientRequest }> {
    return new Promise((resolve, reject) => {
      const request = http.get(
        `${daemon.url}/api/v1/projects/${projectId}/files/read?path=${bigFile}`,
        { headers: { cookie: client.cookie! } },
        (response) => {
          response.pause();
          resolve({ status: response.statusCode ?? 0, request });
        },
      );
      request.on('error', reject);
    });
  }

  test('unread large answers hold their slots: 2 per user, 4 in all, then 503 with Retry-After', async () => {
    const [first, second, third] = readers as [Client, Client, Client];
    const held = [];
    for (const client of [first, first]) held.push(await unreadRead(client));
    const perUser = await read(first);
    expect(perUser.status).toBe(503);
    expect(perUser.body.error).toMatchObject({ code: 'TOO_MANY_LARGE_READS', per_user_limit: 2 });
    for (const client of [second, second]) held.push(await unreadRead(client));
    expect(held.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const full = await read(third);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('1');
    expect(full.body.error).toMatchObject({ code: 'TOO_MANY_LARGE_READS', limit: 4 });
    expect((await read(third, 'small.txt')).body.content).toBe('small');
    // A client that goes away gives its slot back.
    for (const answer of held) {
      answer.request.destroy();
      await once(answer.request, 'close');
    }
    let again = await read(third);
    for (let i = 0; i < 50 && again.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await read(third);
    }
    expect(again.status).toBe(200);
    expect(again.body.size).toBe(10 * 1024 * 1024 - 1024);
  }, 60_000);
});
