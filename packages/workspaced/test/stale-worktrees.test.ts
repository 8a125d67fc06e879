/**
 * @module Tests: stale worktrees through the bin with real git: the list marks merged (landed,
 * or a branch contained in its base), orphaned (task deleted, folder removed by hand), dirty and
 * running worktrees; prune removes merged and orphaned ones and never one with uncommitted or
 * untracked work or a running agent; branches stay.
 */
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let projectDir: string;

beforeAll(async () => {
  ({ daemon, owner, projectId, projectDir } = await startAttemptDaemon('stale'));
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

const attemptOn = async (title: string, prompt: string) => {
  const task = await newTask(owner, projectId, title);
  return {
    task,
    attempt: await runAttempt(owner, task.id, { profile: 'codex', prompt: `${prompt} ;; exit 0` }),
  };
};

test('the list marks merged, orphaned, dirty and running worktrees; prune removes only clean stale ones', async () => {
  const landed = await attemptOn('landed', 'write landed.txt x ;; commit landed');
  expect((await owner.post(`/tasks/${landed.task.id}/land`, { strategy: 'squash' })).status).toBe(200);
  const landedDirty = await attemptOn('landed dirty', 'write ld.txt x ;; commit ld');
  expect((await owner.post(`/tasks/${landedDirty.task.id}/land`, { strategy: 'merge' })).status).toBe(200);
  await writeFile(path.join(landedDirty.attempt.worktree_path, 'scratch.txt'), 'keep me\n');
  const deleted = await attemptOn('deleted task', 'write del.txt x ;; commit del');
  expect((await owner.delete(`/tasks/${deleted.task.id}`)).status).toBe(204);
  const removedByHand = await attemptOn('removed by hand', 'write gone.txt x ;; commit gone');
  await rm(removedByHand.attempt.worktree_path, { recursive: true, force: true });
  const active = await attemptOn('active work', 'write active.txt x ;; commit active');
  const runningTask = await newTask(owner, projectId, 'running agent');
  const running = await owner.post(`/tasks/${runningTask.id}/attempts`, {
    profile: 'claude',
    prompt: 'wait',
  });

  const listed = await owner.get(`/projects/${projectId}/worktrees`);
  expect(listed.status).toBe(200);
  const byPath = Object.fromEntries(listed.body.worktrees.map((w: { path: string }) => [w.path, w]));
  expect(byPath[landed.attempt.worktree_path]).toEqual({
    path: landed.attempt.worktree_path,
    branch: landed.attempt.branch,
    head: git(projectDir, 'rev-parse', landed.attempt.branch).trim(),
    task_id: landed.task.id,
    attempt_id: landed.attempt.id,
    exists: true,
    dirty: false,
    running: false,
    merged: true,
    orphaned: false,
  });
  expect(byPath[landedDirty.attempt.worktree_path]).toMatchObject({ merged: true, dirty: true });
  expect(byPath[deleted.attempt.worktree_path]).toMatchObject({
    orphaned: true,
    merged: false,
    task_id: null,
    dirty: false,
  });
  expect(byPath[removedByHand.attempt.worktree_path]).toMatchObject({ orphaned: true, exists: false });
  expect(byPath[active.attempt.worktree_path]).toMatchObject({
    merged: false,
    orphaned: false,
    dirty: false,
  });
  expect(byPath[running.body.worktree_path]).toMatchObject({ running: true, merged: true, orphaned: false });
  // The project's own work tree is not one of the daemon's worktrees.
  expect(byPath[projectDir]).toBeUndefined();

  const { client: viewer, id } = await userClient(daemon, owner, 'stale-viewer', 'viewer');
  await owner.post(`/projects/${projectId}/members`, { user_id: id, role: 'viewer' });
  expect((await viewer.get(`/projects/${projectId}/worktrees`)).status).toBe(200);
  expect((await viewer.post(`/projects/${projectId}/worktrees/prune`)).body.error.code).toBe(
    'PERMISSION_DENIED',
  );

  const pruned = await owner.post(`/projects/${projectId}/worktrees/prune`);
  expect(pruned.status, JSON.stringify(pruned.body)).toBe(200);
  expect(pruned.body.removed.sort()).toEqual(
    [landed.attempt.worktree_path, deleted.attempt.worktree_path, removedByHand.attempt.worktree_path].sort(),
  );
  expect(pruned.body.kept).toEqual(
    expect.arrayContaining([
      { path: landedDirty.attempt.worktree_path, reason: 'it has uncommitted work' },
      { path: running.body.worktree_path, reason: 'an agent runs in it' },
    ]),
  );
  expect(await stat(landed.attempt.worktree_path).catch(() => null)).toBeNull();
  expect(await stat(deleted.attempt.worktree_path).catch(() => null)).toBeNull();
  expect((await stat(path.join(landedDirty.attempt.worktree_path, 'scratch.txt'))).isFile()).toBe(true);
  expect((await stat(active.attempt.worktree_path)).isDirectory()).toBe(true);
  expect((await stat(running.body.worktree_path)).isDirectory()).toBe(true);
  const registered = git(projectDir, 'worktree', 'list', '--porcelain');
  expect(registered).not.toContain(removedByHand.attempt.worktree_path);
  expect(registered).toContain(active.attempt.worktree_path);
  // Branches stay.
  for (const branch of [landed.attempt.branch, deleted.attempt.branch])
    expect(git(projectDir, 'rev-parse', '--verify', branch).trim()).toMatch(/^[0-9a-f]{40}$/);
  await owner.post(`/attempts/${running.body.id}/stop`);
}, 180_000);
