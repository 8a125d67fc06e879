/**
 * @module Review and land: `GET /tasks/{id}/diff?attempt_id=` (git.view),
 * `POST /tasks/{id}/land` {strategy, message?, remove_worktree?, attempt_id?} and
 * `POST /tasks/{id}/pull-request` {title?, body?, attempt_id?} (git.write and tasks.write: they
 * move a branch and the task). Landings and pushes in one project run one at a time.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { taskGuard } from '../access/project-access.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { publishTask } from '../tasks/task-events.js';
import { findTask, recordPullRequest, taskView } from '../tasks/task-store.js';
import { attemptIdSchema } from './attempt-schema.js';
import { landAttempt, landStrategies } from './land.js';
import { openPullRequest } from './pull-request.js';
import { reviewTarget } from './review-target.js';
import { taskDiff } from './task-diff.js';

const diffQuery = z.object({ attempt_id: attemptIdSchema }).strict();

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !value.includes('\0'), 'contains a NUL byte');

const landBody = z
  .object({
    strategy: z.enum(landStrategies),
    message: text(10_000).optional(),
    remove_worktree: z.boolean().default(false),
    attempt_id: z.number().int().positive().optional(),
  })
  .strict();

const pullRequestBody = z
  .object({
    title: text(256).optional(),
    body: text(60_000).optional(),
    attempt_id: z.number().int().positive().optional(),
  })
  .strict();

export function registerReviewRoutes(app: Hono<AppEnv>, { db, attempts, events }: DaemonContext): void {
  const landings = new KeyedMutex();

  app.get('/tasks/:id/diff', taskGuard(db, 'git.view'), async (c) => {
    const { attempt_id } = readQuery(c, diffQuery);
    return c.json(await taskDiff(await reviewTarget(db, c.var.task, c.var.project, attempt_id)));
  });

  /** The attempt a land or pull request works on, which must not be running. */
  const settledTarget = async (c: Context<AppEnv>, attemptId: number | undefined) => {
    const target = await reviewTarget(db, c.var.task, c.var.project, attemptId);
    if (target.attempt.state === 'running')
      throw new ApiError(
        'ATTEMPT_RUNNING',
        `attempt ${target.attempt.id}'s agent still runs; stop it or wait for it`,
      );
    return target;
  };
  const identity = (c: Context<AppEnv>) => ({
    name: c.var.principal.display_name || c.var.principal.username,
    email: `${c.var.principal.username}@workspaced.localhost`,
  });

  app.post('/tasks/:id/land', taskGuard(db, 'git.write'), taskGuard(db, 'tasks.write'), async (c) => {
    const body = await readJson(c, landBody);
    const answer = await landings.run(`project:${c.var.project.id}`, async () => {
      const target = await settledTarget(c, body.attempt_id);
      const landed = await landAttempt(target, c.var.task, {
        strategy: body.strategy,
        message: body.message,
        removeWorktree: body.remove_worktree,
        identity: identity(c),
      });
      await attempts.landed(target.attempt.id, landed.commit);
      return { target, landed };
    });
    const task = await findTask(db, c.var.task.id);
    return c.json({
      commit: answer.landed.commit,
      strategy: body.strategy,
      attempt_id: answer.target.attempt.id,
      branch: answer.target.attempt.branch,
      base_branch: answer.target.attempt.base_branch,
      worktree_removed: answer.landed.worktree_removed,
      task: task ? taskView(task) : null,
    });
  });

  app.post('/tasks/:id/pull-request', taskGuard(db, 'git.write'), taskGuard(db, 'tasks.write'), async (c) => {
    const body = await readJson(c, pullRequestBody);
    const { target, opened } = await landings.run(`project:${c.var.project.id}`, async () => {
      const target = await settledTarget(c, body.attempt_id);
      const opened = await openPullRequest(target, c.var.task, {
        title: body.title,
        body: body.body,
        identity: identity(c),
      });
      return { target, opened };
    });
    const task = await recordPullRequest(db, c.var.task.id, opened.url);
    publishTask(events, 'task.updated', task);
    return c.json(
      {
        url: opened.url,
        forge: opened.forge,
        remote: opened.remote,
        attempt_id: target.attempt.id,
        branch: target.attempt.branch,
        base_branch: target.attempt.base_branch,
        task: taskView(task),
      },
      201,
    );
  });
}
