/**
 * @module What the diff, land and pull request routes work on: an attempt of the task (the one
 * asked for, else the newest), the project's pinned repository and the attempt's worktree as a
 * pinned repository of its own.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow, TaskAttemptRow, TaskRow } from '../db/schema.js';
import { canonicalRoot } from '../files/rooted-path.js';
import { openProjectRepository, type ProjectRepository } from '../git/project-repository.js';
import { openWorktreeRepository } from '../git/worktree-repository.js';
import { taskAttempt } from './attempt-access.js';

export interface ReviewTarget {
  attempt: TaskAttemptRow;
  repository: ProjectRepository;
  worktree: ProjectRepository;
}

export async function reviewTarget(
  db: WorkspacedDb,
  task: TaskRow,
  project: ProjectRow,
  attemptId: number | undefined,
): Promise<ReviewTarget> {
  const attempt = await taskAttempt(db, task, attemptId);
  const repository = await openProjectRepository(await canonicalRoot(project.path));
  return { attempt, repository, worktree: await openWorktreeRepository(repository, attempt.worktree_path) };
}
