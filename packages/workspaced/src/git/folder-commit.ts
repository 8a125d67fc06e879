/**
 * @module Commits one folder of a repository: the staged content below the project's prefix on
 * top of HEAD's content everywhere else, so what another folder of a monorepo staged is neither
 * committed nor unstaged. Built with plumbing on a temporary index (read-tree HEAD, replace the
 * folder with the real index's entries, write-tree, commit-tree) and published with a
 * compare-and-swap `update-ref`, so a HEAD moved meanwhile is refused instead of overwritten.
 * No hook runs (plumbing runs none), as with `git commit --no-verify` at the top level.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { type ProjectRepository, runInRepository } from './project-repository.js';
import { GitFailure, type GitRunOptions } from './run-git.js';

export async function commitFolder(
  repository: ProjectRepository,
  message: string,
  env: Record<string, string>,
): Promise<string> {
  if (await stat(path.join(repository.gitDir, 'MERGE_HEAD')).catch(() => null))
    throw new ApiError(
      'GIT_CONFLICT',
      "a merge is in progress; finish it from a project at the repository's top level",
    );
  const staged = await runInRepository(repository, ['ls-files', '--stage', '-z', '--full-name', '--', '.']);
  // Records are `mode oid stage<TAB>path`; a stage other than 0 is an unresolved conflict.
  if (staged.split('\0').some((record) => /^\d+ \S+ [1-3]\t/.test(record)))
    throw new ApiError('GIT_CONFLICT', 'the project folder has unmerged files; resolve them first');
  const parent = await runInRepository(repository, [
    'rev-parse',
    '--verify',
    '--quiet',
    'HEAD^{commit}',
  ]).then(
    (oid) => oid.trim(),
    () => undefined,
  );
  const tree = await folderTree(repository, parent, staged);
  const parentTree = parent
    ? (await runInRepository(repository, ['rev-parse', `${parent}^{tree}`])).trim()
    : (await runInRepository(repository, ['hash-object', '-t', 'tree', '--stdin'], { input: '' })).trim();
  if (tree === parentTree) throw new ApiError('GIT_NOTHING_TO_COMMIT', 'nothing is staged to commit');
  // As `git commit --cleanup=strip`: comment lines and surrounding blank lines go.
  const text = await runInRepository(repository, ['stripspace', '--strip-comments'], { input: message });
  if (text.trim() === '') throw new ApiError('GIT_FAILED', 'Aborting commit due to empty commit message.');
  const commit = (
    await runInRepository(repository, ['commit-tree', tree, ...(parent ? ['-p', parent] : [])], {
      input: text,
      env,
    })
  ).trim();
  const subject = text.split('\n')[0] ?? '';
  try {
    await runInRepository(repository, [
      'update-ref',
      '-m',
      `commit: ${subject}`,
      'HEAD',
      commit,
      parent ?? '',
    ]);
  } catch (error) {
    if (error instanceof GitFailure && error.stderr.includes('cannot lock ref'))
      throw new ApiError(
        'GIT_HEAD_MOVED',
        'the branch moved while committing; look at the status and commit again',
      );
    throw error;
  }
  return commit;
}

/** The tree of HEAD with the project folder replaced by what the real index holds there. */
async function folderTree(repository: ProjectRepository, parent: string | undefined, staged: string) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'workspaced-index-'));
  // Paths below are relative to the top level (ls-files --full-name), so git runs there.
  const onTemporaryIndex = (args: string[], options: GitRunOptions = {}) =>
    runInRepository({ ...repository, root: repository.workTree }, args, {
      ...options,
      indexFile: path.join(folder, 'index'),
    });
  try {
    await onTemporaryIndex(parent ? ['read-tree', parent] : ['read-tree', '--empty']);
    await onTemporaryIndex([
      'rm',
      '--cached',
      '-r',
      '-q',
      '--ignore-unmatch',
      '--',
      repository.prefix.slice(0, -1),
    ]);
    await onTemporaryIndex(['update-index', '-z', '--index-info'], { input: staged });
    return (await onTemporaryIndex(['write-tree'])).trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
