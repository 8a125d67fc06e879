/**
 * @module Tests: the git routes on real repositories through the running bin: status (porcelain
 * v2 parsed), diff, log, branches, stage, commit, branch, switch, and the clear errors for dirty
 * trees, conflicts, bad names and folders that are not repositories. Repository config and
 * hooks never run programs.
 */
import { chmod, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { createRepo, git } from './support/git-repo.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

async function project(files?: Record<string, string>) {
  const repo = await createRepo(files);
  const created = await owner.post('/projects', { name: path.basename(repo), path: repo });
  return { repo, api: `/projects/${created.body.id}/git` };
}

describe('reading', () => {
  test('status parses every kind of entry, paths with spaces and renames included', async () => {
    const { repo, api } = await project({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'old name.txt': 'rename me\n' });
    await writeFile(path.join(repo, 'a.txt'), 'a changed\n');
    await writeFile(path.join(repo, 'b.txt'), 'b staged\n');
    git(repo, 'add', 'b.txt');
    git(repo, 'mv', 'old name.txt', 'new name.txt');
    await writeFile(path.join(repo, 'fresh file.txt'), 'new\n');
    const status = await owner.get(`${api}/status`);
    expect(status.status).toBe(200);
    expect(status.body.branch).toMatchObject({
      head: 'main',
      oid: git(repo, 'rev-parse', 'HEAD').trim(),
      upstream: null,
    });
    expect(status.body.clean).toBe(false);
    const byPath = Object.fromEntries(
      status.body.entries.map((entry: { path: string }) => [entry.path, entry]),
    );
    expect(byPath['a.txt']).toEqual({ path: 'a.txt', kind: 'changed', index: '.', worktree: 'M' });
    expect(byPath['b.txt']).toEqual({ path: 'b.txt', kind: 'changed', index: 'M', worktree: '.' });
    expect(byPath['new name.txt']).toEqual({
      path: 'new name.txt',
      orig_path: 'old name.txt',
      kind: 'renamed',
      index: 'R',
      worktree: '.',
    });
    expect(byPath['fresh file.txt']).toMatchObject({ kind: 'untracked' });
    expect(status.body.entries).toHaveLength(4);
  });

  test('a clean repository reports clean; an empty one has no oid', async () => {
    const { api } = await project();
    expect((await owner.get(`${api}/status`)).body).toMatchObject({ clean: true, entries: [] });
    const empty = await scratchDir('empty');
    git(empty, 'init', '-q', '-b', 'trunk');
    const created = await owner.post('/projects', { name: 'empty', path: empty });
    const status = await owner.get(`/projects/${created.body.id}/git/status`);
    expect(status.body.branch).toMatchObject({ head: 'trunk', oid: null });
    expect((await owner.get(`/projects/${created.body.id}/git/log`)).body).toEqual({ commits: [] });
  });

  test('diff shows unstaged and staged changes, optionally for one path', async () => {
    const { repo, api } = await project({ 'one.txt': 'one\n', 'two.txt': 'two\n' });
    await writeFile(path.join(repo, 'one.txt'), 'ONE\n');
    await writeFile(path.join(repo, 'two.txt'), 'TWO\n');
    git(repo, 'add', 'two.txt');
    const unstaged = await owner.get(`${api}/diff`);
    expect(unstaged.body.truncated).toBe(false);
    expect(unstaged.body.diff).toContain('+ONE');
    expect(unstaged.body.diff).not.toContain('+TWO');
    const staged = await owner.get(`${api}/diff?staged=true`);
    expect(staged.body.diff).toContain('+TWO');
    expect(staged.body.diff).not.toContain('+ONE');
    expect((await owner.get(`${api}/diff?path=two.txt`)).body.diff).toBe('');
    expect((await owner.get(`${api}/diff?path=../x`)).status).toBe(400);
  });

  test('log lists commits newest first with author and subject; limit and ref apply', async () => {
    const { repo, api } = await project();
    for (const n of [1, 2, 3]) {
      await writeFile(path.join(repo, `f${n}.txt`), String(n));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', `commit ${n}`);
    }
    const log = await owner.get(`${api}/log?limit=2`);
    expect(log.body.commits).toHaveLength(2);
    expect(log.body.commits[0]).toMatchObject({
      hash: git(repo, 'rev-parse', 'HEAD').trim(),
      author_name: 'Test',
      author_email: 'test@example.com',
      subject: 'commit 3',
    });
    expect(log.body.commits[0].authored_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const fromRef = await owner.get(`${api}/log?ref=HEAD~2`);
    expect(fromRef.body.commits.map((c: { subject: string }) => c.subject)).toEqual(['commit 1', 'initial']);
    expect((await owner.get(`${api}/log?ref=--output=/tmp/x`)).status).toBe(400);
    expect((await owner.get(`${api}/log?ref=nosuchbranch`)).body.error.code).toBe('GIT_REF_NOT_FOUND');
  });

  test('branches lists local branches and marks the current one', async () => {
    const { repo, api } = await project();
    git(repo, 'branch', 'feature');
    const answer = await owner.get(`${api}/branches`);
    expect(answer.body.branches).toEqual([
      { name: 'feature', oid: expect.stringMatching(/^[0-9a-f]{40}$/), current: false, upstream: null },
      { name: 'main', oid: expect.stringMatching(/^[0-9a-f]{40}$/), current: true, upstream: null },
    ]);
  });

  test('a folder that is not a repository gives 409 NOT_A_GIT_REPOSITORY', async () => {
    const plain = await scratchDir('plain');
    const created = await owner.post('/projects', { name: 'plain', path: plain });
    const answer = await owner.get(`/projects/${created.body.id}/git/status`);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('NOT_A_GIT_REPOSITORY');
  });
});

describe('changing', () => {
  test('stage, unstage and commit; the answer carries the new HEAD', async () => {
    const { repo, api } = await project();
    await writeFile(path.join(repo, 'feature.txt'), 'feature\n');
    const staged = await owner.post(`${api}/stage`, { paths: ['feature.txt'] });
    expect(staged.status).toBe(200);
    expect(staged.body.entries).toEqual([
      { path: 'feature.txt', kind: 'changed', index: 'A', worktree: '.' },
    ]);
    const unstaged = await owner.post(`${api}/stage`, { paths: ['feature.txt'], unstage: true });
    expect(unstaged.body.entries[0]).toMatchObject({ kind: 'untracked' });
    await owner.post(`${api}/stage`, { paths: ['feature.txt'] });
    const commit = await owner.post(`${api}/commit`, { message: 'Add feature' });
    expect(commit.status).toBe(201);
    expect(commit.body.hash).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Add feature\n');
    const nothing = await owner.post(`${api}/commit`, { message: 'again' });
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.code).toBe('GIT_NOTHING_TO_COMMIT');
  });

  test('staging a deletion works; paths are literal (no pathspec magic) and must stay inside', async () => {
    const { repo, api } = await project({ 'doomed.txt': 'x', 'keep.txt': 'y' });
    await rm(path.join(repo, 'doomed.txt'));
    const staged = await owner.post(`${api}/stage`, { paths: ['doomed.txt'] });
    expect(staged.body.entries).toEqual([{ path: 'doomed.txt', kind: 'changed', index: 'D', worktree: '.' }]);
    const magic = await owner.post(`${api}/stage`, { paths: [':(glob)*'] });
    expect(magic.status).toBe(404);
    expect(magic.body.error.code).toBe('GIT_PATH_NOT_FOUND');
    expect((await owner.post(`${api}/stage`, { paths: ['../etc'] })).status).toBe(400);
  });

  test('branch creates from HEAD or a start point; duplicates and bad names are refused', async () => {
    const { repo, api } = await project();
    const created = await owner.post(`${api}/branch`, { name: 'feature/one' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'feature/one', oid: git(repo, 'rev-parse', 'HEAD').trim() });
    expect((await owner.post(`${api}/branch`, { name: 'feature/one' })).body.error.code).toBe(
      'GIT_BRANCH_EXISTS',
    );
    for (const name of ['-D', 'a..b', 'x y', 'end.lock', 'a@{1}', '']) {
      const answer = await owner.post(`${api}/branch`, { name });
      expect(answer.status, name).toBe(400);
    }
    expect((await owner.post(`${api}/branch`, { name: 'two', start_point: 'nosuch' })).body.error.code).toBe(
      'GIT_REF_NOT_FOUND',
    );
  });

  test('switch changes branch; local changes that would be lost give 409 GIT_DIRTY_WORKTREE', async () => {
    const { repo, api } = await project({ 'shared.txt': 'base\n' });
    git(repo, 'switch', '-q', '-c', 'other');
    await writeFile(path.join(repo, 'shared.txt'), 'other\n');
    git(repo, 'commit', '-q', '-am', 'other');
    git(repo, 'switch', '-q', 'main');
    const switched = await owner.post(`${api}/switch`, { branch: 'other' });
    expect(switched.status).toBe(200);
    expect(git(repo, 'branch', '--show-current')).toBe('other\n');
    await writeFile(path.join(repo, 'shared.txt'), 'uncommitted work\n');
    const dirty = await owner.post(`${api}/switch`, { branch: 'main' });
    expect(dirty.status).toBe(409);
    expect(dirty.body.error).toMatchObject({ code: 'GIT_DIRTY_WORKTREE', files: ['shared.txt'] });
    expect(await readFile(path.join(repo, 'shared.txt'), 'utf8')).toBe('uncommitted work\n');
    expect(git(repo, 'branch', '--show-current')).toBe('other\n');
    expect((await owner.post(`${api}/switch`, { branch: 'nosuch' })).body.error.code).toBe(
      'GIT_REF_NOT_FOUND',
    );
  });

  test('an unresolved merge conflict gives 409 GIT_CONFLICT on commit and switch', async () => {
    const { repo, api } = await project({ 'clash.txt': 'base\n' });
    git(repo, 'switch', '-q', '-c', 'theirs');
    await writeFile(path.join(repo, 'clash.txt'), 'theirs\n');
    git(repo, 'commit', '-q', '-am', 'theirs');
    git(repo, 'switch', '-q', 'main');
    await writeFile(path.join(repo, 'clash.txt'), 'ours\n');
    git(repo, 'commit', '-q', '-am', 'ours');
    try {
      git(repo, 'merge', 'theirs');
    } catch {
      // The merge stops on the conflict, as intended.
    }
    const status = await owner.get(`${api}/status`);
    expect(status.body.entries).toEqual([{ path: 'clash.txt', kind: 'unmerged', index: 'U', worktree: 'U' }]);
    for (const [route, body] of [
      ['commit', { message: 'merge' }],
      ['switch', { branch: 'theirs' }],
    ] as const) {
      const answer = await owner.post(`${api}/${route}`, body);
      expect(answer.status, route).toBe(409);
      expect(answer.body.error.code, route).toBe('GIT_CONFLICT');
    }
  });

  test('repository hooks and fsmonitor commands never run', async () => {
    const { repo, api } = await project();
    const marker = path.join(repo, '..', `hook-ran-${Date.now()}`);
    await writeFile(path.join(repo, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(path.join(repo, '.git', 'hooks', 'pre-commit'), 0o755);
    git(repo, 'config', 'core.fsmonitor', `touch ${marker}.fsmonitor; false`);
    await writeFile(path.join(repo, 'x.txt'), 'x');
    expect((await owner.get(`${api}/status`)).status).toBe(200);
    await owner.post(`${api}/stage`, { paths: ['x.txt'] });
    expect((await owner.post(`${api}/commit`, { message: 'no hooks' })).status).toBe(201);
    await expect(stat(marker)).rejects.toThrow();
    await expect(stat(`${marker}.fsmonitor`)).rejects.toThrow();
  });
});
