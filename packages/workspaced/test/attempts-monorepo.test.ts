/**
 * @module Tests: attempts in a project that is one folder of a monorepo, through the bin: the
 * agent starts in the project's folder inside the worktree, the diff shows only that folder
 * (paths relative to it), and landing a branch that changed files outside the folder is 409
 * LAND_OUTSIDE_PROJECT with those paths and changes nothing; a branch that stays inside lands.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newTask, runAttempt } from './support/attempts.js';
import type { Client, RunningDaemon } from './support/daemon.js';
import { git } from './support/git-repo.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { scratchDir } from './support/scratch.js';
import { pathWith, standInAgents } from './support/stand-in-agents.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let repo: string;

beforeAll(async () => {
  const agents = await standInAgents();
  repo = await scratchDir('monorepo');
  git(repo, 'init', '-q', '-b', 'main');
  for (const folder of ['pkg1', 'pkg2']) {
    await mkdir(path.join(repo, folder));
    await writeFile(path.join(repo, folder, 'index.ts'), `export const name = '${folder}';\n`);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  ({ daemon, owner } = await startProjectDaemon('monorepo-root', { env: { PATH: pathWith(agents) } }));
  const created = await owner.post('/projects', { name: 'pkg1', path: path.join(repo, 'pkg1') });
  projectId = created.body.id;
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

test('the agent works in the project folder; the diff is the folder; changes outside it never land', async () => {
  const task = await newTask(owner, projectId, 'scoped');
  const attempt = await runAttempt(owner, task.id, {
    profile: 'claude',
    prompt: 'write inside.txt in pkg1 ;; write ../pkg2/index.ts changed from pkg1 ;; commit both ;; exit 0',
  });
  expect(attempt.state).toBe('completed');
  expect(await readFile(path.join(attempt.worktree_path, 'pkg1', 'inside.txt'), 'utf8')).toBe('in pkg1');

  const diff = await owner.get(`/tasks/${task.id}/diff`);
  expect(diff.status).toBe(200);
  expect(diff.body.files.map((file: { path: string }) => file.path)).toEqual(['inside.txt']);

  const main = git(repo, 'rev-parse', 'main');
  const refused = await owner.post(`/tasks/${task.id}/land`, { strategy: 'merge' });
  expect([refused.status, refused.body.error?.code, refused.body.error?.paths]).toEqual([
    409,
    'LAND_OUTSIDE_PROJECT',
    ['pkg2/index.ts'],
  ]);
  expect(git(repo, 'rev-parse', 'main')).toBe(main);

  const clean = await newTask(owner, projectId, 'inside only');
  await runAttempt(owner, clean.id, {
    profile: 'gemini',
    prompt: 'write only.txt ok ;; commit inside ;; exit 0',
  });
  const landed = await owner.post(`/tasks/${clean.id}/land`, { strategy: 'squash' });
  expect(landed.status, JSON.stringify(landed.body)).toBe(200);
  expect(await readFile(path.join(repo, 'pkg1', 'only.txt'), 'utf8')).toBe('ok');
  expect(git(repo, 'show', '--name-only', '--format=', 'main').trim()).toBe('pkg1/only.txt');
});
