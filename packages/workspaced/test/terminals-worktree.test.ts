/**
 * @module Tests: `POST /terminals` with `task_id` starts the shell in the task's worktree (the
 * board's "open a terminal in it"), `cwd` then being relative to the worktree; a task without a
 * worktree, a worktree removed by hand, a task of another project and a path out of the worktree
 * are refused.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { createRepo } from './support/git-repo.js';
import { removeScratchDirs } from './support/scratch.js';
import { openSocket } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let otherProjectId: number;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  projectId = (await owner.post('/projects', { name: 'wt', path: await createRepo() })).body.id;
  otherProjectId = (await owner.post('/projects', { name: 'other', path: await createRepo() })).body.id;
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await removeScratchDirs();
});

const newTask = async (project: number, title: string) =>
  (await owner.post(`/projects/${project}/tasks`, { title })).body as { id: number };

test('a terminal opened with task_id runs in the task worktree; cwd is relative to it', async () => {
  const task = await newTask(projectId, 'terminal here');
  const worktree = (await owner.post(`/tasks/${task.id}/worktree`)).body as { path: string };
  await mkdir(path.join(worktree.path, 'sub'));
  const created = await owner.post('/terminals', {
    project_id: projectId,
    task_id: task.id,
    cwd: 'sub',
    shell: '/bin/sh',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.cwd).toBe(path.join(worktree.path, 'sub'));
  const socket = await openSocket(daemon, owner, `/terminals/${created.body.id}/ws`);
  socket.send({ input: 'echo "in $(git rev-parse --abbrev-ref HEAD)"\r' });
  await socket.until(() => socket.output.includes(`in agent/${task.id}-terminal-here`), 'the task branch');
  await socket.close();
  expect((await owner.post(`/terminals/${created.body.id}/terminate`)).status).toBe(200);
});

test('no worktree yet, a removed worktree, another project, a path out of the worktree are refused', async () => {
  const fresh = await newTask(projectId, 'no worktree');
  const elsewhere = await newTask(otherProjectId, 'elsewhere');
  await owner.post(`/tasks/${elsewhere.id}/worktree`);
  const removed = await newTask(projectId, 'removed');
  const removedPath = (await owner.post(`/tasks/${removed.id}/worktree`)).body.path as string;
  await rm(removedPath, { recursive: true, force: true });
  const opened = await newTask(projectId, 'opened');
  await owner.post(`/tasks/${opened.id}/worktree`);

  const cases: [Record<string, unknown>, number, string][] = [
    [{ project_id: projectId, task_id: fresh.id }, 409, 'NO_WORKTREE'],
    [{ project_id: projectId, task_id: removed.id }, 409, 'WORKTREE_MISSING'],
    [{ project_id: projectId, task_id: elsewhere.id }, 404, 'NOT_FOUND'],
    [{ project_id: projectId, task_id: 999_999 }, 404, 'NOT_FOUND'],
    [{ project_id: projectId, task_id: opened.id, cwd: '../' }, 400, 'INVALID_PATH'],
    [{ project_id: projectId, task_id: 'x' }, 400, 'VALIDATION_FAILED'],
  ];
  for (const [body, status, code] of cases) {
    const answer = await owner.post('/terminals', { shell: '/bin/sh', ...body });
    expect([JSON.stringify(body), answer.status, answer.body.error?.code]).toEqual([
      JSON.stringify(body),
      status,
      code,
    ]);
  }
});
