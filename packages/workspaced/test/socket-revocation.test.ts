/**
 * @module Tests (issue 23, item 1): open sockets do not outlive a revocation. Through the bin,
 * with real WebSockets: a disabled, demoted or signed-out user's terminal socket closes with
 * 4401/4403 and the input frame they send afterwards runs nothing (the file `touch` would create
 * never appears, while a later command of the owner does run); a demoted admin's event socket
 * closes with 4403 and receives no more `task.created`. A change the daemon was not told of (made
 * in its database by another process) is still caught by the next frame or `sub`. In process, against a real database: the
 * expiry sweep closes with 4401 the sockets of sessions that expired, were deleted or whose user
 * was disabled while nobody typed, and leaves live ones open.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { createWebAuth } from '@suite/web-auth';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../src/db/open-database.js';
import { startSessionExpiry } from '../src/realtime/session-expiry.js';
import { SocketRegistry } from '../src/realtime/socket-registry.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { scratchDir } from './support/scratch.js';
import { openSocket, type SocketClient } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectDir: string;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectDir, projectId } = await startProjectDaemon('revocation'));
});

afterAll(() => stopProjectDaemon(daemon));

const exists = (name: string) =>
  access(path.join(projectDir, name)).then(
    () => true,
    () => false,
  );

async function waitForFile(name: string): Promise<void> {
  for (let i = 0; i < 300 && !(await exists(name)); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await exists(name)).toBe(true);
}

function closed(socket: SocketClient): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    if (socket.ws.readyState === socket.ws.CLOSED) return resolve({ code: -1, reason: 'already closed' });
    socket.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
}

/** A developer member typing into the owner's terminal over its socket, proven to work. */
async function typingDeveloper(name: string) {
  const developer = await userClient(daemon, owner, name, 'developer');
  await owner.post(`/projects/${projectId}/members`, { user_id: developer.id, role: 'developer' });
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body;
  const socket = await openSocket(daemon, developer.client, `/terminals/${terminal.id}/ws`);
  socket.send({ input: `touch ${name}-before\r` });
  await waitForFile(`${name}-before`);
  return { ...developer, socket, terminalId: terminal.id as number, end: closed(socket) };
}

/** The frame sent after the revocation ran nothing: a later command of the owner did run. */
async function expectNothingRan(terminalId: number, file: string) {
  await owner.post(`/terminals/${terminalId}/input`, { data: `touch ${file}-owner\r` });
  await waitForFile(`${file}-owner`);
  expect(await exists(file)).toBe(false);
}

describe('terminal sockets after a revocation', () => {
  test('a disabled user: the socket closes with 4401 and their input frame runs nothing', async () => {
    const dev = await typingDeveloper('disabled-dev');
    expect((await owner.patch(`/users/${dev.id}`, { disabled: true })).status).toBe(200);
    dev.socket.send({ input: 'touch disabled-dev-after\r' });
    await expectNothingRan(dev.terminalId, 'disabled-dev-after');
    expect(await dev.end).toEqual({ code: 4401, reason: 'account disabled' });
  });

  test('a developer demoted to viewer: the socket closes with 4403 and input runs nothing', async () => {
    const dev = await typingDeveloper('demoted-dev');
    expect((await owner.patch(`/users/${dev.id}`, { role: 'viewer' })).status).toBe(200);
    dev.socket.send({ input: 'touch demoted-dev-after\r' });
    dev.socket.send({ resize: { cols: 41, rows: 9 } });
    await expectNothingRan(dev.terminalId, 'demoted-dev-after');
    expect(await dev.end).toEqual({ code: 4403, reason: 'terminal.write withdrawn' });
    const listed = (await owner.get('/terminals')).body.terminals.find(
      (t: { id: number }) => t.id === dev.terminalId,
    );
    expect(listed.cols).not.toBe(41);
    // Reconnecting as what they are now: a watcher whose input is refused.
    const again = await openSocket(daemon, dev.client, `/terminals/${dev.terminalId}/ws`);
    again.send({ input: 'touch demoted-dev-again\r' });
    await again.until(() => again.messages.find((m) => m.error?.code === 'PERMISSION_DENIED'), 'denial');
    await expectNothingRan(dev.terminalId, 'demoted-dev-again');
    await again.close();
  });

  test('a member removed from the project: the socket closes with 4403', async () => {
    const dev = await typingDeveloper('removed-dev');
    expect((await owner.delete(`/projects/${projectId}/members/${dev.id}`)).status).toBe(204);
    dev.socket.send({ input: 'touch removed-dev-after\r' });
    await expectNothingRan(dev.terminalId, 'removed-dev-after');
    expect(await dev.end).toEqual({ code: 4403, reason: 'terminal.view withdrawn' });
  });

  test('logout: the session’s sockets close with 4401 and input runs nothing', async () => {
    const dev = await typingDeveloper('logout-dev');
    expect((await dev.client.post('/logout')).status).toBe(204);
    dev.socket.send({ input: 'touch logout-dev-after\r' });
    await expectNothingRan(dev.terminalId, 'logout-dev-after');
    expect(await dev.end).toEqual({ code: 4401, reason: 'signed out' });
  });
});

/** A change made in the daemon's database by another process: no route hook sees it. */
function changeBehindTheDaemon(sql: string, ...params: string[]): void {
  const db = new Database(path.join(daemon.dataDir, 'workspaced.db'));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe('changes nobody told the daemon of', () => {
  test('the next input frame of a user disabled in the database closes with 4401 and runs nothing', async () => {
    const dev = await typingDeveloper('db-disabled-dev');
    changeBehindTheDaemon('UPDATE auth_users SET disabled = 1 WHERE id = ?', dev.id);
    dev.socket.send({ input: 'touch db-disabled-dev-after\r' });
    expect(await dev.end).toEqual({ code: 4401, reason: 'session ended; sign in again' });
    await expectNothingRan(dev.terminalId, 'db-disabled-dev-after');
  });

  test('the next input frame after the membership was deleted in the database closes with 4403', async () => {
    const dev = await typingDeveloper('db-removed-dev');
    changeBehindTheDaemon('DELETE FROM project_members WHERE user_id = ?', dev.id);
    dev.socket.send({ input: 'touch db-removed-dev-after\r' });
    expect(await dev.end).toEqual({ code: 4403, reason: 'terminal.view withdrawn' });
    await expectNothingRan(dev.terminalId, 'db-removed-dev-after');
  });

  test('a sub after the role was lowered in the database is judged with the role of now', async () => {
    const admin = await userClient(daemon, owner, 'db-demoted-admin', 'admin');
    const socket = await openSocket(daemon, admin.client, '/ws');
    changeBehindTheDaemon("UPDATE auth_users SET role = 'viewer' WHERE id = ?", admin.id);
    socket.send({ op: 'sub', stream: `project:${projectId}` });
    await socket.until(() => socket.messages.find((m) => m.op === 'error'), 'refusal');
    expect(socket.messages.map((m) => m.error?.code ?? m.op)).toEqual(['STREAM_NOT_FOUND']);
    await socket.close();
  });
});

describe('event sockets after a revocation', () => {
  test('a demoted admin stops receiving task.created on project:<id> and is closed with 4403', async () => {
    const admin = await userClient(daemon, owner, 'events-admin', 'admin');
    const socket = await openSocket(daemon, admin.client, '/ws');
    const end = closed(socket);
    socket.send({ op: 'hello' });
    socket.send({ op: 'sub', stream: `project:${projectId}` });
    await socket.until(() => socket.messages.find((m) => m.op === 'subscribed'), 'subscribed');
    await owner.post(`/projects/${projectId}/tasks`, { title: 'seen by the admin' });
    await socket.until(() => socket.messages.find((m) => m.type === 'task.created'), 'first task.created');

    expect((await owner.patch(`/users/${admin.id}`, { role: 'viewer' })).status).toBe(200);
    await owner.post(`/projects/${projectId}/tasks`, { title: 'not for a viewer outside the project' });
    expect(await end).toEqual({ code: 4403, reason: `access to project:${projectId} withdrawn` });
    expect(socket.messages.filter((m) => m.type === 'task.created').map((m) => m.data.title)).toEqual([
      'seen by the admin',
    ]);
  });

  test('logout closes the event socket with 4401 before any further sub is served', async () => {
    const admin = await userClient(daemon, owner, 'events-admin-2', 'admin');
    const socket = await openSocket(daemon, admin.client, '/ws');
    const end = closed(socket);
    expect((await admin.client.post('/logout')).status).toBe(204);
    socket.send({ op: 'sub', stream: `user:${admin.id}` });
    expect(await end).toEqual({ code: 4401, reason: 'signed out' });
    expect(socket.messages.filter((m) => m.op === 'subscribed')).toEqual([]);
  });
});

describe('sessions that end while nobody types (in process)', () => {
  test('the sweep closes with 4401 the sockets of expired, deleted and disabled sessions only', async () => {
    const database = await openDatabase(await scratchDir('expiry-db'));
    let now = () => Date.now() - 2 * 60 * 60 * 1000;
    const auth = createWebAuth({ db: database.db, now: () => now() });
    const newUser = (username: string) =>
      auth.users.create({
        username,
        password: `${username} password 123`,
        displayName: null,
        role: 'developer',
      });
    const sleeper = await newUser('sleeper');
    const disabled = await newUser('disabled-sleeper');
    const idle = await auth.sessions.create(sleeper.id); // last used two hours ago
    now = Date.now;
    const live = await auth.sessions.create(sleeper.id);
    const deleted = await auth.sessions.create(sleeper.id);
    const ofDisabled = await auth.sessions.create(disabled.id);
    await auth.sessions.revoke(deleted.token);
    await auth.users.setDisabled(disabled.id, true);

    const sockets = new SocketRegistry();
    const closed = new Map<string, [number, string]>();
    const sessions = { idle, live, deleted, ofDisabled };
    for (const [name, created] of Object.entries(sessions))
      sockets.add({
        userId: created.session.userId,
        sessionId: created.session.id,
        close: (code, reason) => closed.set(name, [code, reason]),
        recheck: async () => {},
      });
    const stop = startSessionExpiry(auth, sockets, pino({ level: 'silent' }), 20);
    for (let i = 0; i < 200 && closed.size < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // One more round: the live session stays open.
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    const ended: [number, string] = [4401, 'session expired; sign in again'];
    expect(Object.fromEntries(closed)).toEqual({ idle: ended, deleted: ended, ofDisabled: ended });
    await database.close();
  });
});
