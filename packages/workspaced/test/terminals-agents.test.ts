/**
 * @module Tests: `GET /agents` through the bin: an agent found in a terminal's process tree (a
 * stand-in program named `claude`) with its state following its output (needs approval, then
 * working), an agent found by its banner only, and visibility per project.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { writeFakeAgent } from './support/fake-agent.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { openSocket } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let fakeAgent: string;

beforeAll(async () => {
  ({ daemon, owner, projectId } = await startProjectDaemon('agents', {
    prepare: async (dir) => {
      fakeAgent = await writeFakeAgent(dir, 'claude', 'Edit file? Do you want to proceed? [y/n]');
    },
  }));
});

afterAll(() => stopProjectDaemon(daemon));

async function agentOf(
  client: Client,
  terminalId: number,
  check: (agent: Record<string, unknown>) => boolean,
) {
  for (let i = 0; i < 100; i++) {
    const answer = await client.get('/agents');
    expect(answer.status).toBe(200);
    const agent = answer.body.agents.find((a: { terminal_id: number }) => a.terminal_id === terminalId);
    if (agent && check(agent)) return agent;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `agent of terminal ${terminalId} never matched; last: ${JSON.stringify((await client.get('/agents')).body)}`,
  );
}

test('an agent process in a terminal is listed with a state that follows its output', async () => {
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
  expect((await owner.get('/agents')).body.agents).toEqual([]);
  const socket = await openSocket(daemon, owner, `/terminals/${terminal}/ws`);
  socket.send({ input: `${fakeAgent}\r` });
  const blocked = await agentOf(owner, terminal, (a) => a.state === 'needs_approval');
  expect(blocked).toMatchObject({ agent: 'claude', detected_by: 'process', project_id: projectId });
  expect(typeof blocked.pid).toBe('number');
  socket.send({ input: 'y\r' });
  await agentOf(owner, terminal, (a) => a.state === 'working');
  socket.send({ input: 'done\r' });
  socket.send({ input: 'echo gone-$((3+3))\r' });
  await socket.until(() => socket.output.includes('gone-6'), 'agent ended');
  expect(
    (await owner.get('/agents')).body.agents.filter(
      (a: { terminal_id: number }) => a.terminal_id === terminal,
    ),
  ).toEqual([]);
  await socket.close();
});

test('an agent banner in the output is enough; other projects do not see it', async () => {
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
  await owner.post(`/terminals/${terminal}/input`, { data: "printf 'Welcome to Claude %s\\n' 'Code'\r" });
  const agent = await agentOf(owner, terminal, () => true);
  expect(agent).toMatchObject({ agent: 'claude', detected_by: 'output', pid: null, state: 'idle' });
  const outsider = await userClient(daemon, owner, 'outsider', 'developer');
  expect((await outsider.client.get('/agents')).body.agents).toEqual([]);
});
