/**
 * @module Where an attempt works. The task's first attempt uses the task's worktree and branch
 * (`POST /tasks/{id}/worktree` makes the same one); each later attempt gets its own, so two
 * tries (another profile, another prompt) never mix their work: `<task folder>.<n>` on
 * `agent/<task id>.<n>-<slug>`. New branches start from the attempt's base branch.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspacedDb } from '../db/open-database.js';
import type { TaskRow } from '../db/schema.js';
import { type ProjectRepository, runInRepository } from '../git/project-repository.js';
import { checkRefName } from '../git/ref-name.js';
import { ApiError } from '../http/api-error.js';
import type { EventBus } from '../realtime/event-bus.js';
import { titleSlug } from '../tasks/branch-name.js';
import { publishTask } from '../tasks/task-events.js';
import { recordWorktree } from '../tasks/task-store.js';
import {
  ensureTaskWorktree,
  ensureWorktree,
  type TaskWorktree,
  worktreeFolder,
} from '../tasks/task-worktree.js';

/**
 * The branch the project's work tree has checked out, the default base of an attempt: read from
 * its pinned git dir's `HEAD` (`ref: refs/heads/<name>`), as git itself reads it.
 */
export async function currentBranch(repository: ProjectRepository): Promise<string> {
  const head = (await readFile(path.join(repository.gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
  if (!head.startsWith('ref: refs/heads/'))
    throw new ApiError('BASE_BRANCH_REQUIRED', "the project's work tree is on no branch; send base_branch");
  return head.slice('ref: refs/heads/'.length);
}

/** `name` if it is an existing local branch (GIT_REF_NOT_FOUND otherwise). */
export async function requireBranch(repository: ProjectRepository, name: string): Promise<string> {
  checkRefName(name, 'base_branch');
  await runInRepository(repository, [
    'rev-parse',
    '--verify',
    '--end-of-options',
    `refs/heads/${name}^{commit}`,
  ]).catch(() => {
    throw new ApiError('GIT_REF_NOT_FOUND', `no local branch ${name}`);
  });
  return name;
}

export async function attemptWorktree(
  deps: { db: WorkspacedDb; dataDir: string; events: EventBus },
  repository: ProjectRepository,
  task: TaskRow,
  attemptNumber: number,
  baseBranch: string,
): Promise<TaskWorktree> {
  const start = `refs/heads/${baseBranch}`;
  if (attemptNumber > 1)
    return ensureWorktree(
      repository,
      `${worktreeFolder(deps.dataDir, task)}.${attemptNumber}`,
      `agent/${task.id}.${attemptNumber}-${titleSlug(task.title)}`,
      start,
    );
  const worktree = await ensureTaskWorktree(repository, deps.dataDir, task, start);
  if (task.branch !== worktree.branch || task.worktree_path !== worktree.path)
    publishTask(
      deps.events,
      'task.updated',
      await recordWorktree(deps.db, task.id, worktree.branch, worktree.path),
    );
  return worktree;
}
