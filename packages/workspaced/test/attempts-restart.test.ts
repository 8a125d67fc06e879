/**
 * @module Tests: an attempt whose agent runs when the daemon stops: the stop does not record it
 * as stopped or failed by the exit the shutdown causes; the next start marks it `failed` (its
 * agent died with the daemon) and its task `failed`, with the attempt's worktree and branch kept.
 * An agent that ended keeps the end of its output (`output_tail`), also across a restart.
 */
import { stat } from 'node:fs/promises';
import { afterAll, expect, test } from 'vitest';
import { newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import { Client, ownerPassword, type RunningDaemon, startDaemon } from './support/daemon.js';
import { stopProjectDaemon } from './support/project-daemon.js';
import { pathWith } from './support/stand-in-agents.js';
import { openSocket } from './support/websocket.js';

const restarted: RunningDaemon[] = [];

afterAll(async () => {
  for (const daemon of restarted) await stopProjectDaemon(daemon);
});

/** The first daemon's data dir served again, the stand-in agents on its PATH, the owner signed in. */
async function restart(first: Awaited<ReturnType<typeof startAttemptDaemon>>) {
  await first.daemon.stop();
  const second = await startDaemon({
    dataDir: first.daemon.dataDir,
    env: { PATH: pathWith(first.agentsDir) },
  });
  restarted.push(second);
  const owner = new Client(second.url);
  expect((await owner.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
  return owner;
}

test('a running attempt is failed after a restart', async () => {
  const first = await startAttemptDaemon('restart');
  const task = await newTask(first.owner, first.projectId, 'survive a restart');
  const started = await first.owner.post(`/tasks/${task.id}/attempts`, { profile: 'claude', prompt: 'wait' });
  expect(started.status).toBe(201);
  const socket = await openSocket(first.daemon, first.owner, `/terminals/${started.body.terminal_id}/ws`);
  await socket.until(() => socket.output.includes('waiting for input'), 'the agent waiting');
  const owner = await restart(first);
  const attempt = (await owner.get(`/attempts/${started.body.id}`)).body;
  expect(attempt).toMatchObject({ state: 'failed', exit_code: null, terminal_id: null, output_tail: null });
  expect(attempt.finished_at).not.toBeNull();
  const now = (await owner.get(`/projects/${first.projectId}/tasks`)).body.tasks[0];
  expect(now).toMatchObject({ id: task.id, state: 'failed' });
  expect((await stat(attempt.worktree_path)).isDirectory()).toBe(true);
}, 120_000);

test("an ended agent's last output stays on the attempt, in its lists and after a restart", async () => {
  const first = await startAttemptDaemon('output-tail');
  const task = await newTask(first.owner, first.projectId, 'print a lot');
  const lines = Array.from(
    { length: 600 },
    (_, index) => `output line ${String(index + 1).padStart(4, '0')}`,
  );
  const ended = await runAttempt(first.owner, task.id, {
    profile: 'claude',
    prompt: `${lines.map((line) => `print ${line}`).join(';;')};;exit 3`,
  });
  expect(ended).toMatchObject({ state: 'failed', exit_code: 3 });
  const tail = ended.output_tail as string;
  expect(tail).toContain(lines.at(-1));
  // Only the end is kept: the first lines (and the echoed prompt before them) are gone.
  expect(tail).not.toContain(lines[0]);
  expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(4_096);
  expect(tail.length).toBeGreaterThan(2_000);
  const listed = (await first.owner.get(`/tasks/${task.id}/attempts`)).body.attempts;
  expect(listed).toEqual([expect.objectContaining({ id: ended.id, output_tail: tail, exit_code: 3 })]);

  const owner = await restart(first);
  expect((await owner.get(`/attempts/${ended.id}`)).body).toMatchObject({
    state: 'failed',
    exit_code: 3,
    output_tail: tail,
  });
}, 120_000);
