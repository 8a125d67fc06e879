/**
 * @module Tests: the attention center through the bin: an agent asking for approval raises a
 * critical `attention.created` (and `agent.state`) on the project stream and the item is
 * resolved by itself once the agent works again; a failed task raises one that a user resolves;
 * who sees and who may resolve.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { writeFakeAgent } from './support/fake-agent.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { openSocket, type SocketClient } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let fakeAgent: string;
let events: SocketClient;

beforeAll(async () => {
  ({ daemon, owner, projectId } = await startProjectDaemon('attention', {
    prepare: async (dir) => {
      fakeAgent = await writeFakeAgent(dir, 'codex', 'Run npm test? Allow? [y/n]');
    },
  }));
  events = await openSocket(daemon, owner, '/ws');
  events.send({ op: 'hello' });
  events.send({ op: 'sub', stream: `project:${projectId}` });
  await events.until(() => events.messages.find((m) => m.op === 'subscribed'), 'subscribed');
});

afterAll(async () => {
  await events?.close();
  await stopProjectDaemon(daemon);
});

const ofType = (type: string, resource: string) =>
  events.messages.filter((m) => m.type === type && m.data.resource === resource);

test('an agent that asks for approval raises a critical item, resolved once it works again', async () => {
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
  const resource = `agent:terminal:${terminal}`;
  await owner.post(`/terminals/${terminal}/input`, { data: `${fakeAgent}\r` });
  const created = await events.until(() => ofType('attention.created', resource)[0], 'attention.created');
  expect(created).toMatchObject({
    critical: true,
    stream: `project:${projectId}`,
    data: { kind: 'agent.blocked', priority: 1, project_id: projectId },
  });
  expect(
    events.messages.find((m) => m.type === 'agent.state' && m.data.state === 'needs_approval'),
  ).toMatchObject({
    data: { agent: 'codex', terminal_id: terminal },
  });
  const listed = (await owner.get('/attention')).body.items;
  expect(listed.find((item: { id: number }) => item.id === created.data.id)).toMatchObject({
    resolved_at: null,
  });
  await owner.post(`/terminals/${terminal}/input`, { data: 'y\r' });
  const resolved = await events.until(() => ofType('attention.resolved', resource)[0], 'attention.resolved');
  expect(resolved).toMatchObject({ critical: true, data: { id: created.data.id, resolved_by: 'auto' } });
  expect(ofType('attention.created', resource)).toHaveLength(1);
}, 30_000);

test('a failed task raises an item that a user resolves; viewers see it, outsiders do not', async () => {
  const task = (
    await owner.post(`/projects/${projectId}/tasks`, { title: 'build', description: '', priority: 1 })
  ).body;
  expect(
    (await owner.post(`/tasks/${task.id}/move`, { state: 'failed', version: task.version })).status,
  ).toBe(200);
  const created = await events.until(() => ofType('attention.created', `task:${task.id}`)[0], 'task item');
  expect(created.data).toMatchObject({ kind: 'task.failed', priority: 2 });
  const id = created.data.id as number;

  const viewer = await userClient(daemon, owner, 'viewer1', 'viewer');
  await owner.post(`/projects/${projectId}/members`, { user_id: viewer.id, role: 'viewer' });
  expect((await viewer.client.get('/attention')).body.items.map((item: { id: number }) => item.id)).toContain(
    id,
  );
  const refused = await viewer.client.post(`/attention/${id}/resolve`);
  expect([refused.status, refused.body.error.code]).toEqual([403, 'PERMISSION_DENIED']);
  const outsider = await userClient(daemon, owner, 'outsider1', 'developer');
  expect((await outsider.client.get('/attention')).body.items).toEqual([]);
  expect((await outsider.client.post(`/attention/${id}/resolve`)).status).toBe(404);

  const done = await owner.post(`/attention/${id}/resolve`);
  expect(done.status).toBe(200);
  expect(done.body.resolved_by).toBe((await owner.get('/me')).body.user.id);
  await events.until(() => ofType('attention.resolved', `task:${task.id}`)[0], 'resolved event');
  expect((await owner.post('/attention/999999/resolve')).status).toBe(404);
});
