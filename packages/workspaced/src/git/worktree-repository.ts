/**
 * @module A task worktree as a pinned repository: `GIT_DIR` is the worktree's own folder in the
 * project repository's `worktrees/` (found by its `gitdir` record, never by reading the
 * worktree's `.git` file, which whatever runs in the worktree may rewrite) and `GIT_WORK_TREE`
 * the worktree. A monorepo project keeps its prefix: git runs in the project's folder there.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import type { ProjectRepository } from './project-repository.js';

/**
 * The repository's common git dir: a linked worktree's git dir names it in its `commondir` file
 * (relative to itself), as git reads it; a main work tree's git dir is the common dir.
 */
async function commonGitDir(repository: ProjectRepository): Promise<string> {
  const named = await readFile(path.join(repository.gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return named === undefined ? repository.gitDir : path.resolve(repository.gitDir, named.trim());
}

export async function openWorktreeRepository(
  project: ProjectRepository,
  worktreePath: string,
): Promise<ProjectRepository> {
  const common = await commonGitDir(project);
  const admin = path.join(common, 'worktrees');
  const wanted = path.join(worktreePath, '.git');
  for (const name of await readdir(admin).catch(() => [] as string[])) {
    const gitdir = await readFile(path.join(admin, name, 'gitdir'), 'utf8').catch(() => '');
    if (gitdir.trim() !== wanted) continue;
    if (!(await stat(worktreePath).catch(() => null))?.isDirectory()) break;
    const folder = path.join(worktreePath, project.prefix);
    const isFolder = (await stat(folder).catch(() => null))?.isDirectory() ?? false;
    return {
      root: isFolder ? folder : worktreePath,
      gitDir: path.join(admin, name),
      workTree: worktreePath,
      prefix: isFolder ? project.prefix : '',
    };
  }
  throw new ApiError('WORKTREE_MISSING', `the worktree ${worktreePath} is gone; start a new attempt`);
}
