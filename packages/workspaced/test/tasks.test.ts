/**
 * @module Tests: tasks through the running bin: create, list, PATCH, DELETE, move with optimistic
 * concurrency (409 and the current task when stale), and task worktrees (creation, reuse,
 * renames, duplicate titles, a worktree folder removed by hand, concurrent requests).
 */
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { createRepo, git } from './support/git-repo.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;
let repo: string;
let projectId: number;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  repo = await createRepo({ 'README.md': 'tasks\n' });
  projectId = (await owner.post('/projects', { name: 'tasks', path: repo })).body.id;
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

const createTask = async (body: Record<string, unknown>) => owner.post(`/projects/${projectId}/tasks`, body);

describe('task records', () => {
  test('create with the spec body answers the full task at version 1', async () => {
    const created = await createTask({ title: 'Write docs', description: 'all routes', priority: 3 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      project_id: projectId,
      title: 'Write docs',
      description: 'all routes',
      priority: 3,
      state: 'todo',
      version: 1,
      branch: null,
      worktree_path: null,
    });
    const minimal = await createTask({ title: 'Only a title' });
    expect(minimal.body).toMatchObject({ description: '', priority: 0, state: 'todo' });
  });

  test('list is ordered by priority, highest first', async () => {
    await createTask({ title: 'urgent', description: '', priority: 900 });
    const titles = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.map(
      (t: { title: string }) => t.title,
    );
    expect(titles[0]).toBe('urgent');
  });

  test('bad fields are 400 VALIDATION_FAILED naming the field', async () => {
    for (const [body, field] of [
      [{ title: '' }, 'title'],
      [{ title: 'x', priority: 1.5 }, 'priority'],
      [{ title: 'x', priority: -1 }, 'priority'],
      [{ title: 'x', state: 'bogus' }, 'state'],
    ] as const) {
      const answer = await createTask(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.issues[0].path).toBe(field);
    }
  });

  test('PATCH changes fields and bumps the version; a stale version in the patch is a 409', async () => {
    const task = (await createTask({ title: 'patch me', description: '', priority: 1 })).body;
    const patched = await owner.patch(`/tasks/${task.id}`, { description: 'now described', priority: 5 });
    expect(patched.body).toMatchObject({
      title: 'patch me',
      description: 'now described',
      priority: 5,
      version: 2,
    });
    const stale = await owner.patch(`/tasks/${task.id}`, { title: 'lost update', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect(stale.body.error.task).toMatchObject({ title: 'patch me', version: 2 });
    expect((await owner.patch(`/tasks/${task.id}`, {})).status).toBe(400);
  });

  test('move with the current version succeeds; with a stale one answers 409 and the current task', async () => {
    const task = (await createTask({ title: 'move me', description: '', priority: 1 })).body;
    const moved = await owner.post(`/tasks/${task.id}/move`, { state: 'running', version: 1 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ state: 'running', version: 2 });
    const stale = await owner.post(`/tasks/${task.id}/move`, { state: 'done', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'VERSION_CONFLICT',
      task: { id: task.id, state: 'running', version: 2 },
    });
    const list = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks;
    expect(list.find((t: { id: number }) => t.id === task.id)).toMatchObject({
      state: 'running',
      version: 2,
    });
  });

  test('of two concurrent moves from one version exactly one wins', async () => {
    const task = (await createTask({ title: 'race', description: '', priority: 1 })).body;
    const answers = await Promise.all(
      ['review', 'done'].map((state) => owner.post(`/tasks/${task.id}/move`, { state, version: 1 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    const loser = answers.find((a) => a.status === 409)!.body;
    expect(loser.error.task).toEqual(winner);
  });

  test('DELETE removes the task; later calls are 404', async () => {
    const task = (await createTask({ title: 'delete me' })).body;
    expect((await owner.delete(`/tasks/${task.id}`)).status).toBe(204);
    expect((await owner.delete(`/tasks/${task.id}`)).status).toBe(404);
    expect((await owner.post(`/tasks/${task.id}/move`, { state: 'done', version: 1 })).status).toBe(404);
    expect((await owner.patch('/tasks/abc', { title: 'x' })).status).toBe(404);
  });
});

describe('task worktrees', () => {
  test('creates a worktree on agent/<id>-<slug> under the data dir, then reuses it', async () => {
    const task = (await createTask({ title: 'Fix the Login Bug!' })).body;
    const created = await owner.post(`/tasks/${task.id}/worktree`);
    expect(created.status).toBe(201);
    const expectedPath = path.join(daemon.dataDir, 'worktrees', String(projectId), String(task.id));
    expect(created.body).toMatchObject({
      path: expectedPath,
      branch: `agent/${task.id}-fix-the-login-bug`,
      created: true,
      task: { branch: `agent/${task.id}-fix-the-login-bug`, worktree_path: expectedPath },
    });
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${expectedPath}`);
    expect(git(expectedPath, 'branch', '--show-current')).toBe(`agent/${task.id}-fix-the-login-bug\n`);
    const again = await owner.post(`/tasks/${task.id}/worktree`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ path: expectedPath, created: false });
  });

  test('a renamed task keeps its branch and worktree', async () => {
    const task = (await createTask({ title: 'original name' })).body;
    const first = (await owner.post(`/tasks/${task.id}/worktree`)).body;
    await owner.patch(`/tasks/${task.id}`, { title: 'a completely different name' });
    const second = await owner.post(`/tasks/${task.id}/worktree`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ path: first.path, branch: `agent/${task.id}-original-name` });
  });

  test('two tasks with the same title get separate branches and folders', async () => {
    const one = (await createTask({ title: 'Same title' })).body;
    const two = (await createTask({ title: 'Same title' })).body;
    const a = (await owner.post(`/tasks/${one.id}/worktree`)).body;
    const b = (await owner.post(`/tasks/${two.id}/worktree`)).body;
    expect(a.branch).not.toBe(b.branch);
    expect(a.path).not.toBe(b.path);
  });

  test('a worktree folder deleted by hand is recreated on the same branch', async () => {
    const task = (await createTask({ title: 'fragile' })).body;
    const first = (await owner.post(`/tasks/${task.id}/worktree`)).body;
    await rm(first.path, { recursive: true, force: true });
    const again = await owner.post(`/tasks/${task.id}/worktree`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ path: first.path, branch: first.branch, created: true });
    expect((await stat(path.join(first.path, 'README.md'))).isFile()).toBe(true);
  });

  test('two concurrent requests for one task create one worktree', async () => {
    const task = (await createTask({ title: 'double click' })).body;
    const answers = await Promise.all([1, 2].map(() => owner.post(`/tasks/${task.id}/worktree`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
  });

  test('a title without letters gets a plain slug; a repository without commits is a 409', async () => {
    const task = (await createTask({ title: '!!! ???' })).body;
    expect((await owner.post(`/tasks/${task.id}/worktree`)).body.branch).toBe(`agent/${task.id}-task`);
    const empty = await scratchDir('nocommit');
    git(empty, 'init', '-q');
    const project = (await owner.post('/projects', { name: 'empty', path: empty })).body.id;
    const orphan = (await owner.post(`/projects/${project}/tasks`, { title: 'nothing to branch from' })).body;
    const answer = await owner.post(`/tasks/${orphan.id}/worktree`);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('GIT_NO_COMMITS');
  });
});
