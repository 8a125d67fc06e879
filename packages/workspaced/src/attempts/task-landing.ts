/**
 * @module Landing a task, wherever it is asked for: `POST /tasks/{id}/land` (and the MCP tool
 * through it) or a workflow's `land` step. Both run the same code, one landing or pull request
 * per project at a time. A project may name the one workflow allowed to land its tasks
 * (`land_requires_workflow`): every other landing is 409 LAND_REQUIRES_APPROVAL. A workflow's
 * landing acts as the run's starter, whose right to land (git.write and tasks.write in the
 * project) is checked again when the step runs, not only when the run started.
 */
import type { User } from '@suite/web-auth';
import { type Permission, roleHas } from '../access/permissions.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import { type Principal, toPrincipal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow, TaskRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import { findProject } from '../projects/project-store.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { findTask } from '../tasks/task-store.js';
import type { AttemptRunner } from './attempt-runner.js';
import { type LandStrategy, landAttempt } from './land.js';
import { type ReviewTarget, reviewTarget } from './review-target.js';

/** What landing takes in the task's project, on the route and in a workflow alike. */
export const landPermissions: readonly Permission[] = ['git.write', 'tasks.write'];

interface LandOptions {
  strategy: LandStrategy;
  message?: string;
  removeWorktree?: boolean;
  /** Default: the task's newest attempt. */
  attemptId?: number;
  /** The workflow whose land step asks; undefined for a direct landing. */
  workflow?: string;
}

/** A landing as the route answers it (without the task) and a workflow step records it. */
export interface LandSummary {
  commit: string;
  strategy: LandStrategy;
  attempt_id: number;
  branch: string;
  base_branch: string;
  worktree_removed: boolean;
}

interface TaskLandingDeps {
  db: WorkspacedDb;
  attempts: AttemptRunner;
  /** The account as it is now (a workflow's starter may have been disabled since). */
  findUser: (id: string) => Promise<User | undefined>;
}

/** The author and committer of commits made for `principal`. */
export const landingIdentity = (principal: Principal) => ({
  name: principal.display_name || principal.username,
  email: `${principal.username}@workspaced.localhost`,
});

/** 409 LAND_REQUIRES_APPROVAL unless the project lets `workflow` (or any caller) land. */
export function requireLandingWorkflow(project: ProjectRow, workflow: string | undefined): void {
  const required = project.land_requires_workflow;
  if (required === null || required === workflow) return;
  throw new ApiError(
    'LAND_REQUIRES_APPROVAL',
    `tasks of this project land only through the workflow "${required}" (its approval step guards landing): start it with the task's task_id`,
    { workflow: required },
  );
}

export class TaskLanding {
  private readonly locks = new KeyedMutex();

  constructor(private readonly deps: TaskLandingDeps) {}

  /** Runs `work` alone among the project's landings and pull requests. */
  exclusive<T>(projectId: number, work: () => Promise<T>): Promise<T> {
    return this.locks.run(`project:${projectId}`, work);
  }

  /** The attempt a land or pull request works on, which must not be running. */
  async settledTarget(
    task: TaskRow,
    project: ProjectRow,
    attemptId: number | undefined,
  ): Promise<ReviewTarget> {
    const target = await reviewTarget(this.deps.db, task, project, attemptId);
    if (target.attempt.state === 'running')
      throw new ApiError(
        'ATTEMPT_RUNNING',
        `attempt ${target.attempt.id}'s agent still runs; stop it or wait for it`,
      );
    return target;
  }

  /** Lands the task's attempt as `principal` (whose permissions the caller checked). */
  async land(
    task: TaskRow,
    project: ProjectRow,
    principal: Principal,
    options: LandOptions,
  ): Promise<LandSummary> {
    requireLandingWorkflow(project, options.workflow);
    return this.exclusive(project.id, async () => {
      const target = await this.settledTarget(task, project, options.attemptId);
      const landed = await landAttempt(target, task, {
        strategy: options.strategy,
        message: options.message,
        removeWorktree: options.removeWorktree ?? false,
        identity: landingIdentity(principal),
      });
      await this.deps.attempts.landed(target.attempt.id, landed.commit);
      return {
        commit: landed.commit,
        strategy: options.strategy,
        attempt_id: target.attempt.id,
        branch: target.attempt.branch,
        base_branch: target.attempt.base_branch,
        worktree_removed: landed.worktree_removed,
      };
    });
  }

  /**
   * A workflow's land step: the run's task, in the run's project, landed as the user who started
   * the run, if that user (enabled, with their role of now) may still land there.
   */
  async landForRun(run: {
    workflow: string;
    project_id: number;
    task_id: number | null;
    started_by: string;
    strategy: LandStrategy;
  }): Promise<LandSummary> {
    const project = await findProject(this.deps.db, run.project_id);
    if (!project) throw notFound('project');
    const task = run.task_id === null ? undefined : await findTask(this.deps.db, run.task_id);
    if (!task || task.project_id !== project.id) throw notFound('task');
    const user = await this.deps.findUser(run.started_by);
    if (!user || user.disabled)
      throw new ApiError('PERMISSION_DENIED', "the run's starter no longer has an enabled account");
    const starter = toPrincipal(user);
    const role = await effectiveProjectRole(this.deps.db, starter, project);
    for (const permission of landPermissions)
      if (!role || !roleHas(role, permission))
        throw new ApiError(
          'PERMISSION_DENIED',
          `the role of the run's starter no longer grants ${permission}`,
          {
            permission,
          },
        );
    return this.land(task, project, starter, { strategy: run.strategy, workflow: run.workflow });
  }
}
