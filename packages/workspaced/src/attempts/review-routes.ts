/**
 * @module Review and land: `GET /tasks/{id}/diff?attempt_id=` (git.view) and
 * `POST /tasks/{id}/land` {strategy, message?, remove_worktree?, attempt_id?} (git.write and
 * tasks.write: it moves a branch and the task). Landings in one project run one at a time.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { taskGuard } from '../access/project-access.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { findTask, taskView } from '../tasks/task-store.js';
import { attemptIdSchema } from './attempt-schema.js';
import { landAttempt, landStrategies } from './land.js';
import { reviewTarget } from './review-target.js';
import { taskDiff } from './task-diff.js';

const diffQuery = z.object({ attempt_id: attemptIdSchema }).strict();

const landBody = z
  .object({
    strategy: z.enum(landStrategies),
    message: z
      .string()
      .trim()
      .min(1)
      .max(10_000)
      .refine((value) => !value.includes('\0'), 'contains a NUL byte')
      .optional(),
    remove_worktree: z.boolean().default(false),
    attempt_id: z.number().int().positive().optional(),
  })
  .strict();

export function registerReviewRoutes(app: Hono<AppEnv>, { db, attempts }: DaemonContext): void {
  const landings = new KeyedMutex();

  app.get('/tasks/:id/diff', taskGuard(db, 'git.view'), async (c) => {
    const { attempt_id } = readQuery(c, diffQuery);
    return c.json(await taskDiff(await reviewTarget(db, c.var.task, c.var.project, attempt_id)));
  });

  app.post('/tasks/:id/land', taskGuard(db, 'git.write'), taskGuard(db, 'tasks.write'), async (c) => {
    const body = await readJson(c, landBody);
    const user = c.var.principal;
    const answer = await landings.run(`project:${c.var.project.id}`, async () => {
      const target = await reviewTarget(db, c.var.task, c.var.project, body.attempt_id);
      if (target.attempt.state === 'running')
        throw new ApiError(
          'ATTEMPT_RUNNING',
          `attempt ${target.attempt.id}'s agent still runs; stop it or wait for it`,
        );
      const landed = await landAttempt(target, c.var.task, {
        strategy: body.strategy,
        message: body.message,
        removeWorktree: body.remove_worktree,
        identity: {
          name: user.display_name || user.username,
          email: `${user.username}@workspaced.localhost`,
        },
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
}
