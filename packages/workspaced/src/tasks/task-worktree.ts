/**
 * @module `POST /tasks/{id}/worktree`: one git worktree per task, in
 * `<data dir>/worktrees/<project id>/<task id>`, on branch `agent/<task id>-<slug>`. Both are
 * recorded on the task the first time, so a renamed task keeps its worktree and branch, and a
 * second call (even after the folder was deleted by hand) reuses them. git runs on the project's
 * pinned repository (git/project-repository.ts), as the git routes do, never on one it discovers.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { TaskRow } from '../db/schema.js';
import { withGitErrors } from '../git/git-errors.js';
import { type ProjectRepository, runInRepository } from '../git/project-repository.js';
import { GitFailure } from '../git/run-git.js';
import { ApiError } from '../http/api-error.js';
import { taskBranchName } from './branch-name.js';

export interface TaskWorktree {
  path: string;
  branch: string;
  created: boolean;
}

export function worktreeFolder(dataDir: string, task: TaskRow): string {
  return path.join(dataDir, 'worktrees', String(task.project_id), String(task.id));
}

export async function ensureTaskWorktree(
  repository: ProjectRepository,
  dataDir: string,
  task: TaskRow,
  startPoint = 'HEAD',
): Promise<TaskWorktree> {
  const folder = task.worktree_path ?? worktreeFolder(dataDir, task);
  const branch = task.branch ?? taskBranchName(task.id, task.title);
  return ensureWorktree(repository, folder, branch, startPoint);
}

/**
 * The worktree at `folder` on `branch`: reused when registered and present, else added (on a
 * new branch from `startPoint`, or on the branch when it exists). The common case, a new
 * worktree, costs one git run: the rarer ones are recognized from git's refusal.
 */
export async function ensureWorktree(
  repository: ProjectRepository,
  folder: string,
  branch: string,
  startPoint: string,
): Promise<TaskWorktree> {
  return withGitErrors(async () => {
    if ((await isDirectory(folder)) && (await registeredWorktrees(repository)).has(folder))
      return { path: folder, branch, created: false };
    const add = (args: string[]) =>
      runInRepository(repository, ['worktree', 'add', ...args], { timeoutMs: 120_000 });
    const onBranch = async () => {
      try {
        await add(['-b', branch, '--end-of-options', folder, startPoint]);
      } catch (error) {
        if (!gitSays(error, 'a branch named')) throw error;
        await add(['--end-of-options', folder, branch]);
      }
    };
    try {
      try {
        await onBranch();
      } catch (error) {
        // A worktree folder removed by hand stays registered until pruned.
        if (!gitSays(error, 'already registered')) throw error;
        await runInRepository(repository, ['worktree', 'prune']);
        await onBranch();
      }
    } catch (error) {
      if (gitSays(error, 'already checked out'))
        throw new ApiError('GIT_BRANCH_CHECKED_OUT', `branch ${branch} is checked out in another worktree`);
      // The start point is HEAD or a branch found just before: only an unborn branch is missing.
      if (gitSays(error, 'invalid reference') || gitSays(error, 'not a valid object name'))
        throw new ApiError('GIT_NO_COMMITS', 'the repository has no commit to start a worktree from');
      throw error;
    }
    return { path: folder, branch, created: true };
  });
}

const gitSays = (error: unknown, text: string) => error instanceof GitFailure && error.stderr.includes(text);

async function registeredWorktrees(repository: ProjectRepository): Promise<Set<string>> {
  const output = await runInRepository(repository, ['worktree', 'list', '--porcelain', '-z']);
  const folders = new Set<string>();
  for (const field of output.split('\0')) if (field.startsWith('worktree ')) folders.add(field.slice(9));
  return folders;
}

async function isDirectory(folder: string): Promise<boolean> {
  return (await stat(folder).catch(() => null))?.isDirectory() ?? false;
}
