/**
 * @module Tests: an attempt whose agent runs when the daemon stops: the stop does not record it
 * as stopped or failed by the exit the shutdown causes; the next start marks it `failed` (its
 * agent died with the daemon) and its task `failed`, with the attempt's worktree and branch kept.
 */
import { stat } from 'node:fs/promises';
import { afterAll, expect, test } from 'vitest';
import { newTask, startAttemptDaemon } from './support/attempts.js';
import { Client, ownerPassword, type RunningDaemon, startDaemon } from './support/daemon.js';
import { stopProjectDaemon } from './support/project-daemon.js';
import { pathWith } from './support/stand-in-agents.js';
import { openSocket } from './support/websocket.js';

let second: RunningDaemon | undefined;

afterAll(async () => {
  await stopProjectDaemon(second);
});

test('a running attempt is failed after a restart', async () => {
  const first = await startAttemptDaemon('restart');
  const task = await newTask(first.owner, first.projectId, 'survive a restart');
  const started = await first.owner.post(`/tasks/${task.id}/attempts`, { profile: 'claude', prompt: 'wait' });
  expect(started.status).toBe(201);
  const socket = await openSocket(first.daemon, first.owner, `/terminals/${started.body.terminal_id}/ws`);
  await socket.until(() => socket.output.includes('waiting for input'), 'the agent waiting');
  await first.daemon.stop();

  second = await startDaemon({ dataDir: first.daemon.dataDir, env: { PATH: pathWith(first.agentsDir) } });
  const owner = new Client(second.url);
  expect((await owner.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
  const attempt = (await owner.get(`/attempts/${started.body.id}`)).body;
  expect(attempt).toMatchObject({ state: 'failed', exit_code: null, terminal_id: null });
  expect(attempt.finished_at).not.toBeNull();
  const now = (await owner.get(`/projects/${first.projectId}/tasks`)).body.tasks[0];
  expect(now).toMatchObject({ id: task.id, state: 'failed' });
  expect((await stat(attempt.worktree_path)).isDirectory()).toBe(true);
}, 120_000);
