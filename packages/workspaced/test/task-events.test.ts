/**
 * @module Tests: every task change reaches the event socket (stream `project:<id>`) through the
 * bin: created, edited, moved between states, worktree opened, deleted, each with the task as
 * the REST route answers it; a member of another project receives none of them.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { createRepo } from './support/git-repo.js';
import { removeScratchDirs } from './support/scratch.js';
import { openSocket, type SocketClient } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let events: SocketClient;

async function subscribe(client: Client, stream: string): Promise<SocketClient> {
  const socket = await openSocket(daemon, client, '/ws');
  socket.send({ op: 'hello' });
  socket.send({ op: 'sub', stream });
  await socket.until(
    () => socket.messages.find((m) => m.op === 'subscribed' || m.op === 'error'),
    'sub answer',
  );
  return socket;
}

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  const repo = await createRepo({ 'README.md': 'hello\n' });
  projectId = (await owner.post('/projects', { name: 'events', path: repo })).body.id;
  events = await subscribe(owner, `project:${projectId}`);
});

afterAll(async () => {
  await events?.close();
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await removeScratchDirs();
});

const taskEvents = (id: number) =>
  events.messages.filter((m) => m.type?.startsWith('task.') && m.data.id === id);

test('create, edit, move, worktree and delete each publish the task on the project stream', async () => {
  const created = await owner.post(`/projects/${projectId}/tasks`, { title: 'Ship events', priority: 3 });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const first = await events.until(() => taskEvents(id)[0], 'task.created');
  expect(first).toMatchObject({
    v: 1,
    stream: `project:${projectId}`,
    type: 'task.created',
    critical: false,
  });
  expect(first.data).toEqual(created.body);

  const edited = await owner.patch(`/tasks/${id}`, { title: 'Ship task events' });
  const moved = await owner.post(`/tasks/${id}/move`, { state: 'running', version: edited.body.version });
  const worktree = await owner.post(`/tasks/${id}/worktree`);
  expect(worktree.status).toBe(201);
  // Reusing the worktree changes nothing, so it publishes nothing.
  expect((await owner.post(`/tasks/${id}/worktree`)).status).toBe(200);
  expect((await owner.delete(`/tasks/${id}`)).status).toBe(204);

  const all = await events.until(() => {
    const seen = taskEvents(id);
    return seen.some((m) => m.type === 'task.deleted') && seen;
  }, 'task.deleted');
  expect(all.map((m: { type: string }) => m.type)).toEqual([
    'task.created',
    'task.updated',
    'task.updated',
    'task.updated',
    'task.deleted',
  ]);
  expect(all[1].data).toEqual(edited.body);
  expect(all[2].data).toEqual(moved.body);
  expect(all[2].data.state).toBe('running');
  expect(all[3].data).toEqual(worktree.body.task);
  expect(all[3].data.worktree_path).toBe(worktree.body.path);
  expect(all[4].data).toEqual({ id, project_id: projectId });
  const seqs = all.map((m: { seq: number }) => m.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
});

test('a refused change publishes nothing, and other projects see nothing', async () => {
  const outsider = await userClient(daemon, owner, 'outsider', 'developer');
  const repo = await createRepo({ 'README.md': 'other\n' });
  const otherProject = (await owner.post('/projects', { name: 'other', path: repo })).body.id as number;
  await owner.post(`/projects/${otherProject}/members`, { user_id: outsider.id, role: 'developer' });
  const theirs = await subscribe(outsider.client, `project:${otherProject}`);
  const refused = await subscribe(outsider.client, `project:${projectId}`);
  expect(refused.messages.find((m) => m.op === 'error').error.code).toBe('STREAM_NOT_FOUND');

  const task = (await owner.post(`/projects/${projectId}/tasks`, { title: 'private' })).body;
  const stale = await owner.post(`/tasks/${task.id}/move`, { state: 'done', version: task.version + 5 });
  expect(stale.status).toBe(409);
  await owner.post(`/tasks/${task.id}/move`, { state: 'done', version: task.version });
  await events.until(() => taskEvents(task.id).length === 2, 'created and moved');
  expect(taskEvents(task.id).map((m) => m.data.state)).toEqual(['todo', 'done']);
  // A marker on the other project proves the outsider's socket is live and received in order.
  const marker = (await owner.post(`/projects/${otherProject}/tasks`, { title: 'marker' })).body;
  await theirs.until(() => theirs.messages.find((m) => m.data?.id === marker.id), 'marker');
  expect(theirs.messages.filter((m) => m.data?.project_id === projectId)).toEqual([]);
  expect(refused.messages.filter((m) => m.type)).toEqual([]);
  await theirs.close();
  await refused.close();
});
