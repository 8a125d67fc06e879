/**
 * @module Tests: `POST /tasks/{id}/pull-request` through the bin, with a bare repository on disk
 * as `origin` and a stand-in `gh` on the daemon's PATH (its `auth status` answers from a marker
 * file; `pr create` checks the branch reached the remote, records its arguments and prints a
 * URL): 424 FORGE_UNAVAILABLE without a remote, without gh, with gh signed out; then the branch
 * (uncommitted work committed first) pushed, the request opened and its URL stored on the task.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import type { Client, RunningDaemon } from './support/daemon.js';
import { addBareOrigin, installStandInGh, standInPullRequestUrl } from './support/forge.js';
import { git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let projectDir: string;
let agentsDir: string;

beforeAll(async () => {
  ({ daemon, owner, projectId, projectDir, agentsDir } = await startAttemptDaemon('pull-request'));
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

test('424 without a remote, without gh, signed out; then the branch is pushed and the URL stored', async () => {
  const task = await newTask(owner, projectId, 'Open a PR', 'the description');
  const attempt = await runAttempt(owner, task.id, {
    profile: 'claude',
    prompt: 'write pr.txt x ;; commit pr file ;; exit 0',
  });
  await writeFile(path.join(attempt.worktree_path, 'pending.txt'), 'uncommitted\n');

  const refused = async (reason: string) => {
    const answer = await owner.post(`/tasks/${task.id}/pull-request`, {});
    expect([answer.status, answer.body.error?.code, answer.body.error?.reason]).toEqual([
      424,
      'FORGE_UNAVAILABLE',
      reason,
    ]);
  };
  await refused('the repository has no remote');
  const remote = await addBareOrigin(projectDir);
  await refused("gh is not installed on the daemon's PATH");
  const { gh, state } = await installStandInGh(agentsDir, false);
  await refused('gh is not signed in (run: gh auth login)');
  expect(git(remote, 'for-each-ref').trim()).toBe('');

  await writeFile(path.join(state, 'signed-in'), '');
  const opened = await owner.post(`/tasks/${task.id}/pull-request`, { title: 'Add pr.txt' });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  expect(opened.body).toMatchObject({
    url: standInPullRequestUrl,
    forge: 'github',
    remote: 'origin',
    attempt_id: attempt.id,
    branch: attempt.branch,
    base_branch: 'main',
    task: { id: task.id, pull_request_url: standInPullRequestUrl },
  });
  const pushed = git(remote, 'rev-parse', `refs/heads/${attempt.branch}`).trim();
  expect(pushed).toBe(git(projectDir, 'rev-parse', attempt.branch).trim());
  expect(git(remote, 'log', '-1', '--format=%s', pushed).trim()).toBe(
    `workspaced: uncommitted work of attempt #${attempt.id} (claude)`,
  );
  expect(git(remote, 'ls-tree', '--name-only', pushed)).toContain('pending.txt');
  expect((await readFile(path.join(state, 'pr-args'), 'utf8')).split('\n')).toEqual([
    'pr',
    'create',
    '--head',
    attempt.branch,
    '--base',
    'main',
    '--title',
    'Add pr.txt',
    '--body',
    `the description`,
    '',
    `Opened by workspaced: task #${task.id}, attempt #${attempt.id} (claude).`,
    '',
  ]);
  expect((await readFile(path.join(state, 'pr-cwd'), 'utf8')).trim()).toBe(attempt.worktree_path);
  const stored = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find(
    (t: { id: number }) => t.id === task.id,
  );
  expect(stored.pull_request_url).toBe(standInPullRequestUrl);
  await rm(gh);
});
