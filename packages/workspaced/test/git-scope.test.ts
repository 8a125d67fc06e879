/**
 * @module Tests: git stays inside the project. In a monorepo whose folders `pkg1` and `pkg2` are
 * two projects, pkg1's git routes never show or change pkg2 (status, diff, log, stage, commit;
 * switch, which would change every folder, is refused). A bare repository planted through
 * `files/write` in a project without `.git` is never used: its `filter.*.clean` command does
 * not run and the routes answer NOT_A_GIT_REPOSITORY.
 */
import { execFileSync } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { createRepo, git } from './support/git-repo.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;
let viewer: Client;
let viewerId: string;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  ({ client: viewer, id: viewerId } = await userClient(daemon, owner, 'viewer', 'viewer'));
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

/** `mono` with committed pkg1/ and pkg2/, one project for each, pkg1 shared with the viewer. */
async function monorepo() {
  const mono = await createRepo({
    'README.md': 'top\n',
    'pkg1/a.txt': 'one\n',
    'pkg1/b.txt': 'bee\n',
    'pkg2/secret.txt': 'pkg2 committed\n',
  });
  await writeFile(path.join(mono, 'pkg2', 'secret-note.txt'), 'pkg2-commit-only\n');
  git(mono, 'add', 'pkg2');
  git(mono, 'commit', '-q', '-m', 'pkg2 private subject');
  const pkg1 = (
    await owner.post('/projects', { name: `pkg1-${path.basename(mono)}`, path: path.join(mono, 'pkg1') })
  ).body.id as number;
  const pkg2 = (
    await owner.post('/projects', { name: `pkg2-${path.basename(mono)}`, path: path.join(mono, 'pkg2') })
  ).body.id as number;
  expect((await owner.post(`/projects/${pkg1}/members`, { user_id: viewerId, role: 'viewer' })).status).toBe(
    200,
  );
  return { mono, pkg1: `/projects/${pkg1}/git`, pkg2: `/projects/${pkg2}/git` };
}

/** Uncommitted work in both folders: modified, staged and untracked files. */
async function dirtyBoth(mono: string) {
  await writeFile(path.join(mono, 'pkg1', 'a.txt'), 'one changed in pkg1\n');
  await writeFile(path.join(mono, 'pkg1', 'b.txt'), 'bee staged in pkg1\n');
  git(mono, 'add', 'pkg1/b.txt');
  await writeFile(path.join(mono, 'pkg1', 'new1.txt'), 'new in pkg1\n');
  await writeFile(path.join(mono, 'pkg2', 'secret.txt'), 'PKG2-UNSTAGED-SECRET\n');
  await writeFile(path.join(mono, 'pkg2', 'staged.txt'), 'PKG2-STAGED-SECRET\n');
  git(mono, 'add', 'pkg2/staged.txt');
  await writeFile(path.join(mono, 'pkg2', 'untracked.txt'), 'PKG2-UNTRACKED\n');
  await writeFile(path.join(mono, 'top-level.txt'), 'TOP-LEVEL-CHANGE\n');
}

const stagedNames = (mono: string) =>
  git(mono, 'diff', '--cached', '--name-only').split('\n').filter(Boolean);

describe('a project in a subfolder of a repository', () => {
  test("a viewer of pkg1 sees pkg1's changes, relative to pkg1, and nothing of pkg2", async () => {
    const { mono, pkg1 } = await monorepo();
    await dirtyBoth(mono);
    const status = await viewer.get(`${pkg1}/status`);
    expect(status.status).toBe(200);
    expect(status.body.entries).toEqual([
      { path: 'a.txt', kind: 'changed', index: '.', worktree: 'M' },
      { path: 'b.txt', kind: 'changed', index: 'M', worktree: '.' },
      { path: 'new1.txt', kind: 'untracked', index: '?', worktree: '?' },
    ]);
    const answers = [
      await viewer.get(`${pkg1}/diff`),
      await viewer.get(`${pkg1}/diff?staged=true`),
      await viewer.get(`${pkg1}/log`),
      status,
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const text = JSON.stringify(answer.body);
      for (const leak of ['pkg2', 'PKG2', 'secret', 'top-level', 'TOP-LEVEL'])
        expect(text, `${leak} in ${text.slice(0, 300)}`).not.toContain(leak);
    }
    expect(answers[0]!.body.diff).toContain('+one changed in pkg1');
    expect(answers[0]!.body.diff).toContain('a/a.txt');
    expect(answers[1]!.body.diff).toContain('+bee staged in pkg1');
    expect(answers[2]!.body.commits.map((c: { subject: string }) => c.subject)).toEqual(['initial']);
  });

  test('stage and commit in pkg1 take only pkg1; what pkg2 staged stays staged and uncommitted', async () => {
    const { mono, pkg1 } = await monorepo();
    await dirtyBoth(mono);
    const before = git(mono, 'rev-parse', 'HEAD').trim();
    const staged = await owner.post(`${pkg1}/stage`, { paths: ['.'] });
    expect(staged.status).toBe(200);
    expect(staged.body.entries.map((e: { path: string }) => e.path)).toEqual(['a.txt', 'b.txt', 'new1.txt']);
    expect(stagedNames(mono)).toEqual(['pkg1/a.txt', 'pkg1/b.txt', 'pkg1/new1.txt', 'pkg2/staged.txt']);

    const commit = await owner.post(`${pkg1}/commit`, { message: 'pkg1 work\n\n# a comment line' });
    expect(commit.status).toBe(201);
    expect(commit.body.hash).toBe(git(mono, 'rev-parse', 'HEAD').trim());
    expect(git(mono, 'rev-parse', 'HEAD~1').trim()).toBe(before);
    expect(git(mono, 'log', '-1', '--format=%B').trim()).toBe('pkg1 work');
    expect(git(mono, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean)).toEqual([
      'pkg1/a.txt',
      'pkg1/b.txt',
      'pkg1/new1.txt',
    ]);
    expect(stagedNames(mono)).toEqual(['pkg2/staged.txt']);
    expect(git(mono, 'status', '--porcelain', '--', 'pkg1')).toBe('');
    expect((await owner.post(`${pkg1}/commit`, { message: 'again' })).body.error.code).toBe(
      'GIT_NOTHING_TO_COMMIT',
    );
  });

  test('switch (it would change every folder) is refused; branches are shared and may be created', async () => {
    const { mono, pkg1 } = await monorepo();
    git(mono, 'branch', 'other');
    const refused = await owner.post(`${pkg1}/switch`, { branch: 'other' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('GIT_NOT_REPOSITORY_ROOT');
    expect(git(mono, 'branch', '--show-current')).toBe('main\n');
    expect((await owner.post(`${pkg1}/branch`, { name: 'feature' })).status).toBe(201);
  });
});

describe('a bare repository planted through files/write', () => {
  test('is never used: its clean filter does not run and git answers NOT_A_GIT_REPOSITORY', async () => {
    const version = execFileSync('git', ['--version'], { encoding: 'utf8' });
    const [major = 0, minor = 0] = (version.match(/(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
    // safe.bareRepository (the -c the daemon passes) exists from git 2.38.
    expect(major * 100 + minor, version).toBeGreaterThanOrEqual(238);
    const folder = await scratchDir('plain-project');
    const outside = await scratchDir('marker');
    const marker = path.join(outside, 'filter-ran');
    const id = (await owner.post('/projects', { name: `plain-${path.basename(folder)}`, path: folder })).body
      .id;
    const plant = async (file: string, content: string) =>
      expect(
        (await owner.post(`/projects/${id}/files/write`, { path: file, content, create_dirs: true })).status,
      ).toBe(201);
    await plant('HEAD', 'ref: refs/heads/main\n');
    await plant('objects/info/keep', '');
    await plant('refs/heads/keep', '');
    await plant(
      'config',
      `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ${folder}\n` +
        `[filter "evil"]\n\tclean = touch ${marker}; cat\n\tsmudge = cat\n`,
    );
    await plant('.gitattributes', '* filter=evil\n');
    await plant('victim.txt', 'stage me\n');
    const staged = await owner.post(`/projects/${id}/git/stage`, { paths: ['victim.txt'] });
    expect([staged.status, staged.body.error?.code]).toEqual([409, 'NOT_A_GIT_REPOSITORY']);
    for (const route of ['status', 'diff', 'log', 'branches']) {
      const answer = await owner.get(`/projects/${id}/git/${route}`);
      expect([answer.status, answer.body.error?.code], route).toEqual([409, 'NOT_A_GIT_REPOSITORY']);
    }
    await expect(stat(marker)).rejects.toThrow();
  });
});
