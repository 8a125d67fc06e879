/**
 * @module Tests: review and land through the bin, with real git. The diff of an attempt (its
 * commits and its worktree's uncommitted work against the merge base: statuses, line counts,
 * patches, binary and large files marked); landing with merge, squash and rebase (the
 * uncommitted work committed first, naming the attempt; the task done; the project's work
 * tree moved); a conflict leaving both branches, the worktree and the project's work tree
 * exactly as they were; a dirty project work tree; and the refusals.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { landingState, newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let projectDir: string;

beforeAll(async () => {
  ({ daemon, owner, projectId, projectDir } = await startAttemptDaemon('review', {
    files: {
      'README.md': 'line one\nline two\nline three\n',
      'old-name.txt': 'will be renamed\n'.repeat(20),
      'gone.txt': 'bye\n',
    },
  }));
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

const taskState = async (id: number) =>
  (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find((t: { id: number }) => t.id === id).state;

/** A finished attempt whose agent committed `committed` steps; returns it with its worktree. */
async function attemptWith(title: string, prompt: string) {
  const task = await newTask(owner, projectId, title);
  const attempt = await runAttempt(owner, task.id, { profile: 'claude', prompt: `${prompt} ;; exit 0` });
  expect(attempt.state).toBe('completed');
  return { task, attempt, worktree: attempt.worktree_path as string };
}

const snapshot = (worktree: string) => landingState(projectDir, worktree);

test('the diff shows committed and uncommitted work file by file, binary and large files marked', async () => {
  const { task, attempt, worktree } = await attemptWith(
    'diff me',
    'write README.md line one\\nline 2\\nline three\\nline four\\n ;; write added.txt a\\nb\\n ;; commit agent work',
  );
  git(worktree, 'mv', 'old-name.txt', 'new-name.txt');
  git(worktree, 'rm', '-q', 'gone.txt');
  git(worktree, 'commit', '-q', '-m', 'rename and delete');
  await writeFile(path.join(worktree, 'image.bin'), randomBytes(2048));
  await writeFile(path.join(worktree, 'big.txt'), 'x'.repeat(100).concat('\n').repeat(4000));
  await writeFile(path.join(worktree, 'added.txt'), 'a\nb\nc\n'); // uncommitted change to a committed file
  await writeFile(path.join(worktree, 'untracked.txt'), 'new\n');
  await writeFile(path.join(worktree, '.gitignore'), 'ignored.log\n');
  await writeFile(path.join(worktree, 'ignored.log'), 'never shown\n');

  const answer = await owner.get(`/tasks/${task.id}/diff`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const diff = answer.body;
  expect(diff).toMatchObject({
    task_id: task.id,
    attempt_id: attempt.id,
    branch: attempt.branch,
    base_branch: 'main',
    merge_base: git(projectDir, 'rev-parse', 'main').trim(),
    head: git(worktree, 'rev-parse', 'HEAD').trim(),
    uncommitted: true,
    truncated: false,
  });
  const byPath = Object.fromEntries(diff.files.map((file: { path: string }) => [file.path, file]));
  expect(Object.keys(byPath).sort()).toEqual(
    [
      '.gitignore',
      'README.md',
      'added.txt',
      'big.txt',
      'gone.txt',
      'image.bin',
      'new-name.txt',
      'untracked.txt',
    ].sort(),
  );
  expect(byPath['README.md']).toMatchObject({
    status: 'modified',
    additions: 2,
    deletions: 1,
    binary: false,
    large: false,
  });
  expect(byPath['README.md'].patch).toContain('-line two\n+line 2\n');
  expect(byPath['README.md'].patch).toContain('+line four\n');
  expect(byPath['README.md'].patch.startsWith('diff --git a/README.md b/README.md\n')).toBe(true);
  expect(byPath['added.txt']).toMatchObject({ status: 'added', additions: 3, deletions: 0 });
  expect(byPath['added.txt'].patch).toContain('+a\n+b\n+c\n');
  expect(byPath['new-name.txt']).toMatchObject({
    status: 'renamed',
    old_path: 'old-name.txt',
    additions: 0,
    deletions: 0,
  });
  expect(byPath['gone.txt']).toMatchObject({ status: 'deleted', additions: 0, deletions: 1 });
  expect(byPath['image.bin']).toMatchObject({ status: 'added', binary: true, additions: null, patch: null });
  expect(byPath['big.txt']).toMatchObject({ status: 'added', large: true, additions: 4000, patch: null });
  expect(byPath['untracked.txt']).toMatchObject({ status: 'added', additions: 1 });
  expect(diff.additions).toBe(
    diff.files.reduce((sum: number, f: { additions: number | null }) => sum + (f.additions ?? 0), 0),
  );
  // The review read the worktree without touching its index.
  expect(git(worktree, 'status', '--porcelain=v1')).toContain('?? untracked.txt');

  const { client: viewer, id } = await userClient(daemon, owner, 'diff-viewer', 'viewer');
  await owner.post(`/projects/${projectId}/members`, { user_id: id, role: 'viewer' });
  expect((await viewer.get(`/tasks/${task.id}/diff`)).status).toBe(200);
  expect((await viewer.post(`/tasks/${task.id}/land`, { strategy: 'merge' })).body.error.code).toBe(
    'PERMISSION_DENIED',
  );
  expect((await owner.get(`/tasks/${task.id}/diff?attempt_id=999999`)).status).toBe(404);
  expect((await owner.get(`/tasks/${task.id}/diff?attempt_id=x`)).status).toBe(400);
});

test('merge: uncommitted work is committed naming the attempt, a merge commit lands, the task is done', async () => {
  const { task, attempt, worktree } = await attemptWith(
    'merge me',
    'write merged.txt merged ;; commit merged file',
  );
  await writeFile(path.join(worktree, 'left-over.txt'), 'uncommitted\n');
  const before = git(projectDir, 'rev-parse', 'main').trim();
  const landed = await owner.post(`/tasks/${task.id}/land`, { strategy: 'merge' });
  expect(landed.status, JSON.stringify(landed.body)).toBe(200);
  const main = git(projectDir, 'rev-parse', 'main').trim();
  expect(landed.body).toMatchObject({
    commit: main,
    strategy: 'merge',
    attempt_id: attempt.id,
    branch: attempt.branch,
    base_branch: 'main',
    worktree_removed: false,
    task: { id: task.id, state: 'done' },
  });
  const branchTip = git(projectDir, 'rev-parse', attempt.branch).trim();
  expect(git(projectDir, 'rev-list', '--parents', '-n', '1', main).trim()).toBe(
    `${main} ${before} ${branchTip}`,
  );
  expect(git(projectDir, 'log', '-1', '--format=%s', attempt.branch).trim()).toBe(
    `workspaced: uncommitted work of attempt #${attempt.id} (claude)`,
  );
  expect(git(projectDir, 'log', '-1', '--format=%s', main).trim()).toBe(`Merge ${attempt.branch}: merge me`);
  // The project's work tree moved with its branch and is clean.
  expect(await readFile(path.join(projectDir, 'merged.txt'), 'utf8')).toBe('merged');
  expect(await readFile(path.join(projectDir, 'left-over.txt'), 'utf8')).toBe('uncommitted\n');
  expect(git(projectDir, 'status', '--porcelain')).toBe('');
  expect(git(worktree, 'status', '--porcelain')).toBe('');
  expect(await taskState(task.id)).toBe('done');
  expect((await owner.get(`/attempts/${attempt.id}`)).body.landed_commit).toBe(main);
  const again = await owner.post(`/tasks/${task.id}/land`, { strategy: 'merge' });
  expect([again.status, again.body.error.code]).toEqual([409, 'NOTHING_TO_LAND']);
});

test('squash: one commit with the given message; remove_worktree removes the worktree and keeps the branch', async () => {
  const { task, attempt, worktree } = await attemptWith(
    'squash me',
    'write s1.txt one ;; commit first ;; write s2.txt two ;; commit second',
  );
  const before = git(projectDir, 'rev-parse', 'main').trim();
  const landed = await owner.post(`/tasks/${task.id}/land`, {
    strategy: 'squash',
    message: 'Add s1 and s2',
    remove_worktree: true,
  });
  expect(landed.status, JSON.stringify(landed.body)).toBe(200);
  const main = git(projectDir, 'rev-parse', 'main').trim();
  expect(landed.body).toMatchObject({ commit: main, worktree_removed: true });
  expect(git(projectDir, 'rev-list', '--parents', '-n', '1', main).trim()).toBe(`${main} ${before}`);
  expect(git(projectDir, 'log', '-1', '--format=%B', main).trim()).toBe('Add s1 and s2');
  expect(git(projectDir, 'diff', '--name-only', before, main).trim().split('\n').sort()).toEqual([
    's1.txt',
    's2.txt',
  ]);
  expect(await stat(worktree).catch(() => null)).toBeNull();
  expect(git(projectDir, 'rev-parse', '--verify', attempt.branch).trim()).toMatch(/^[0-9a-f]{40}$/);
});

test('rebase: the branch commits replayed on a base that moved on, linear history', async () => {
  const { task, attempt } = await attemptWith(
    'rebase me',
    'write r1.txt one ;; commit r one ;; write r2.txt two ;; commit r two',
  );
  await writeFile(path.join(projectDir, 'on-main.txt'), 'main moved\n');
  git(projectDir, 'add', 'on-main.txt');
  git(projectDir, 'commit', '-q', '-m', 'main moves on');
  const before = git(projectDir, 'rev-parse', 'main').trim();
  const landed = await owner.post(`/tasks/${task.id}/land`, { strategy: 'rebase' });
  expect(landed.status, JSON.stringify(landed.body)).toBe(200);
  const main = git(projectDir, 'rev-parse', 'main').trim();
  expect(landed.body.commit).toBe(main);
  expect(git(projectDir, 'log', '--format=%s', `${before}..${main}`).trim().split('\n')).toEqual([
    'r two',
    'r one',
  ]);
  expect(git(projectDir, 'rev-list', '--merges', `${before}..${main}`).trim()).toBe('');
  expect(git(projectDir, 'rev-list', '--parents', '-n', '1', `${main}~1`).trim().split(' ')[1]).toBe(before);
  expect(await readFile(path.join(projectDir, 'r2.txt'), 'utf8')).toBe('two');
  expect(git(projectDir, 'worktree', 'list', '--porcelain')).not.toContain('workspaced-land-');
  expect(await taskState(task.id)).toBe('done');
  expect(attempt.branch).toBeTruthy();
});

test.each(['merge', 'squash', 'rebase'])(
  '%s conflict: 409 with the paths, nothing changed anywhere',
  async (strategy) => {
    const { task, worktree } = await attemptWith(
      `conflict ${strategy}`,
      `write README.md agent ${strategy}\\n ;; commit agent edits README`,
    );
    await writeFile(path.join(projectDir, 'README.md'), `main ${strategy}\n`);
    git(projectDir, 'commit', '-q', '-am', `main edits README for ${strategy}`);
    await writeFile(path.join(worktree, 'pending.txt'), 'not committed yet\n');
    await writeFile(path.join(worktree, 'staged.txt'), 'staged\n');
    git(worktree, 'add', 'staged.txt');
    await writeFile(path.join(projectDir, 'untracked-in-project.txt'), 'mine\n');
    const before = snapshot(worktree);
    const answer = await owner.post(`/tasks/${task.id}/land`, { strategy });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'LAND_CONFLICT', paths: ['README.md'] });
    expect(snapshot(worktree)).toEqual(before);
    expect(await readFile(path.join(worktree, 'pending.txt'), 'utf8')).toBe('not committed yet\n');
    expect(await readFile(path.join(worktree, 'README.md'), 'utf8')).toBe(`agent ${strategy}\n`);
    expect(git(projectDir, 'worktree', 'list', '--porcelain')).not.toContain('workspaced-land-');
    expect(await taskState(task.id)).toBe('review');
    await rm(path.join(projectDir, 'untracked-in-project.txt'));
  },
);

test('a dirty project work tree is 409 WORKTREE_DIRTY and nothing changes; a running agent is 409', async () => {
  const { task, worktree } = await attemptWith('dirty project', 'write clean.txt fine ;; commit fine');
  await writeFile(path.join(projectDir, 'README.md'), 'edited by hand\n');
  const before = snapshot(worktree);
  const answer = await owner.post(`/tasks/${task.id}/land`, { strategy: 'squash' });
  expect([answer.status, answer.body.error.code, answer.body.error.paths]).toEqual([
    409,
    'WORKTREE_DIRTY',
    ['README.md'],
  ]);
  expect(snapshot(worktree)).toEqual(before);
  git(projectDir, 'checkout', '--', 'README.md');

  const running = await newTask(owner, projectId, 'still running');
  const started = await owner.post(`/tasks/${running.id}/attempts`, { profile: 'claude', prompt: 'wait' });
  expect((await owner.post(`/tasks/${running.id}/land`, { strategy: 'merge' })).body.error.code).toBe(
    'ATTEMPT_RUNNING',
  );
  await owner.post(`/attempts/${started.body.id}/stop`);

  const none = await newTask(owner, projectId, 'no attempt');
  expect((await owner.post(`/tasks/${none.id}/land`, { strategy: 'merge' })).body.error.code).toBe(
    'NO_ATTEMPT',
  );
  expect((await owner.get(`/tasks/${none.id}/diff`)).body.error.code).toBe('NO_ATTEMPT');
  expect((await owner.post(`/tasks/${task.id}/land`, { strategy: 'octopus' })).status).toBe(400);
});
