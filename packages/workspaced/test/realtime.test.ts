/**
 * @module Tests: the event socket `/api/v1/ws`. Through the running bin: hello/sub, terminal
 * lifecycle events with sequence numbers, resume from `last_seq` after a reconnect, stream
 * authorization, upgrade refusals, both kinds of socket closed with 1001 on SIGTERM. In process,
 * with a real SQLite file and a real `ws` client that stops reading: the per-client queue stays
 * bounded, non-critical events are dropped with a `stream_overflow` notice, critical events all
 * arrive.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { openDatabase } from '../src/db/open-database.js';
import { createProject } from '../src/projects/project-store.js';
import { EventBus } from '../src/realtime/event-bus.js';
import { serveEventSocket } from '../src/realtime/event-socket.js';
import { TerminalManager } from '../src/terminals/terminal-manager.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';
import { openSocket, rawUpgrade, SocketClient } from './support/websocket.js';

afterAll(removeScratchDirs);

describe('event socket through the bin', () => {
  let daemon: RunningDaemon;
  let owner: Client;
  let projectId: number;

  beforeAll(async () => {
    ({ daemon, owner, projectId } = await startProjectDaemon('realtime'));
  });

  afterAll(() => stopProjectDaemon(daemon));

  const events = (socket: SocketClient, type: string) => socket.messages.filter((m) => m.type === type);

  async function subscribed(lastSeq?: number) {
    const socket = await openSocket(daemon, owner, '/ws');
    socket.send(lastSeq === undefined ? { op: 'hello' } : { op: 'hello', last_seq: lastSeq });
    socket.send({ op: 'sub', stream: `project:${projectId}` });
    await socket.until(() => socket.messages.find((m) => m.op === 'subscribed'), 'subscribed');
    return socket;
  }

  test('terminal lifecycle events arrive on project:<id> with increasing sequence numbers', async () => {
    const socket = await subscribed();
    const created = await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' });
    const id = created.body.id as number;
    await owner.post(`/terminals/${id}/terminate`);
    const exited = await socket.until(() => events(socket, 'terminal.exited')[0], 'terminal.exited');
    const [createdEvent] = events(socket, 'terminal.created');
    expect(createdEvent).toMatchObject({
      v: 1,
      stream: `project:${projectId}`,
      data: { id, project_id: projectId },
    });
    expect(exited).toMatchObject({ stream: `project:${projectId}`, data: { id } });
    expect(exited.seq).toBeGreaterThan(createdEvent.seq);
    await socket.close();
  });

  test('a reconnect with last_seq replays what was missed, and nothing older', async () => {
    const first = await subscribed();
    const one = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
    const seen = await first.until(() => events(first, 'terminal.created')[0], 'first event');
    await first.close();
    const two = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
    const resumed = await subscribed(seen.seq);
    const replayed = await resumed.until(() => events(resumed, 'terminal.created')[0], 'replayed event');
    expect(replayed.data.id).toBe(two);
    expect(events(resumed, 'terminal.created').map((e) => e.data.id)).not.toContain(one);
    await resumed.close();
    // Without last_seq a client starts from now: no replay at all.
    const fresh = await subscribed();
    await owner.post(`/terminals/${one}/terminate`);
    await fresh.until(() => events(fresh, 'terminal.exited')[0], 'live event');
    expect(events(fresh, 'terminal.created')).toEqual([]);
    await fresh.close();
  });

  test('streams are authorized per sub; unknown and invisible streams are refused', async () => {
    const outsider = await userClient(daemon, owner, 'outsider', 'developer');
    const socket = await openSocket(daemon, outsider.client, '/ws');
    socket.send({ op: 'hello' });
    for (const stream of [`project:${projectId}`, 'project:999', 'nonsense', 'terminal:1'])
      socket.send({ op: 'sub', stream });
    socket.send({ op: 'bogus' });
    await socket.until(() => socket.messages.filter((m) => m.op === 'error').length === 5, 'five errors');
    expect(socket.messages.filter((m) => m.error?.code === 'STREAM_NOT_FOUND')).toHaveLength(4);
    await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' });
    socket.send({ op: 'hello' });
    await socket.until(() => socket.messages.filter((m) => m.op === 'hello').length === 2, 'second hello');
    expect(socket.messages.filter((m) => m.type)).toEqual([]);
    await socket.close();
  });

  test('the event socket upgrade needs an allowed Origin, Host and a session', async () => {
    const base = { host: `127.0.0.1:${daemon.port}`, origin: daemon.url, cookie: owner.cookie! };
    expect((await rawUpgrade(daemon, '/ws', base)).status).toBe(101);
    expect(
      (await rawUpgrade(daemon, '/ws', { ...base, origin: 'http://127.0.0.1.evil.example' })).status,
    ).toBe(403);
    expect((await rawUpgrade(daemon, '/ws', { ...base, host: 'evil.example' })).status).toBe(403);
    expect((await rawUpgrade(daemon, '/ws', { ...base, cookie: '' })).status).toBe(401);
  });
});

test('SIGTERM closes open event and terminal sockets with 1001 and the daemon exits cleanly', async () => {
  const { daemon, owner, projectId } = await startProjectDaemon('stopping');
  try {
    const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body;
    const sockets = [
      await openSocket(daemon, owner, '/ws'),
      await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`),
    ];
    const closes = sockets.map(
      (socket) =>
        new Promise<[number, string]>((resolve) =>
          socket.ws.once('close', (code, reason) => resolve([code, reason.toString()])),
        ),
    );
    expect(await daemon.stop()).toBe(0);
    expect(await Promise.all(closes)).toEqual([
      [1001, 'daemon stopping'],
      [1001, 'daemon stopping'],
    ]);
  } finally {
    await stopProjectDaemon(daemon);
  }
});

describe('a client that stops reading events', () => {
  test('its queue stays bounded; non-critical events are dropped with a notice, critical ones never', async () => {
    const database = await openDatabase(await scratchDir('realtime-db'));
    const project = await createProject(database.db, 'p', '/tmp', 'owner-id');
    const bus = new EventBus(100_000, 64 * 1024 * 1024);
    const terminals = new TerminalManager(bus);
    const maxQueuedBytes = 512 * 1024;
    const server = createServer();
    const sockets = new WebSocketServer({ server });
    const principal = { id: 'owner-id', username: 'owner', display_name: null, role: 'owner' as const };
    sockets.on('connection', (ws) =>
      serveEventSocket(ws, async () => principal, {
        db: database.db,
        terminals,
        events: bus,
        maxQueuedBytes,
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const client = new SocketClient(ws);
    await once(ws, 'open');
    client.send({ op: 'hello' });
    client.send({ op: 'sub', stream: `project:${project.id}` });
    await client.until(() => client.messages.find((m) => m.op === 'subscribed'), 'subscribed');

    ws.pause();
    const stream = `project:${project.id}`;
    const padding = 'x'.repeat(8 * 1024);
    const total = 4_000; // 32 MiB of events: far beyond the kernel's socket buffers.
    const critical: number[] = [];
    for (let i = 0; i < total; i++) {
      const isCritical = i % 500 === 0;
      const event = bus.publish(
        stream,
        isCritical ? 'attention.created' : 'noise',
        { i, padding },
        isCritical,
      );
      if (isCritical) critical.push(event.seq);
    }
    ws.resume();
    await client.until(
      () => client.messages.find((m) => m.op === 'stream_overflow'),
      'overflow notice',
      60_000,
    );
    // The last event is published after the drain, so it must arrive once the queue is open again.
    const last = bus.publish(stream, 'noise', { i: total }).seq;
    await client.until(() => client.messages.find((m) => m.seq === last), 'the event after the overflow');
    const received = client.messages.filter((m) => m.type);
    expect(received.length).toBeLessThan(total);
    expect(received.filter((m) => m.critical).map((m) => m.seq)).toEqual(critical);
    const notice = client.messages.find((m) => m.op === 'stream_overflow');
    expect(notice.stream).toBe(stream);
    // Resubscribing from the notice's last_seq fetches the dropped events from the ring.
    client.send({ op: 'sub', stream, last_seq: notice.last_seq });
    await client.until(
      () => client.messages.filter((m) => m.seq === notice.last_seq + 1).length > 0,
      'refill',
    );

    await client.close();
    sockets.close();
    server.close();
    await database.close();
  }, 120_000);
});

describe("a client too slow for the daemon's own critical events", () => {
  test('is closed with 4408 once they would push its queue past four times its byte bound', async () => {
    const database = await openDatabase(await scratchDir('realtime-critical-db'));
    const project = await createProject(database.db, 'p', '/tmp', 'owner-id');
    const bus = new EventBus();
    const server = createServer();
    const sockets = new WebSocketServer({ server });
    const principal = { id: 'owner-id', username: 'owner', display_name: null, role: 'owner' as const };
    const deps = {
      db: database.db,
      terminals: new TerminalManager(bus),
      events: bus,
      maxQueuedBytes: 64 * 1024,
    };
    sockets.on('connection', (ws) => serveEventSocket(ws, async () => principal, deps));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const client = new SocketClient(ws);
    await once(ws, 'open');
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    client.send({ op: 'sub', stream: `project:${project.id}` });
    await client.until(() => client.messages.find((m) => m.op === 'subscribed'), 'subscribed');

    ws.pause();
    const padding = 'x'.repeat(8 * 1024);
    // 32 MiB of critical events the daemon itself publishes: none may be dropped, so the client goes.
    for (let i = 0; i < 4_000; i++)
      bus.publish(`project:${project.id}`, 'attention.created', { i, padding }, true);
    ws.resume();
    expect(await closed).toBe(4408);
    const received = client.messages.filter((m) => m.type === 'attention.created');
    expect(received.length).toBeLessThan(4_000);
    // Every one that did arrive came in order, none skipped: the client resumes from the last.
    expect(received.map((m) => m.data.i)).toEqual(received.map((_m, index) => index));

    sockets.close();
    server.close();
    await database.close();
  }, 120_000);
});
