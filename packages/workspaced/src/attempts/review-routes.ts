/**
 * @module Review and land: `GET /tasks/{id}/diff?attempt_id=` (git.view),
 * `POST /tasks/{id}/land` {strategy, message?, remove_worktree?, attempt_id?} and
 * `POST /tasks/{id}/pull-request` {title?, body?, attempt_id?} (git.write and tasks.write: they
 * move a branch and the task). Landings and pushes in one project run one at a time
 * (attempts/task-landing.ts, shared with workflows' land steps).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { taskGuard } from '../access/project-access.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import { publishTask } from '../tasks/task-events.js';
import { findTask, recordPullRequest, taskView } from '../tasks/task-store.js';
import { attemptIdSchema } from './attempt-schema.js';
import { landStrategies } from './land.js';
import { openPullRequest } from './pull-request.js';
import { reviewTarget } from './review-target.js';
import { taskDiff } from './task-diff.js';
import { landingIdentity } from './task-landing.js';

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

export function registerReviewRoutes(app: Hono<AppEnv>, { db, landing, events }: DaemonContext): void {
  app.get('/tasks/:id/diff', taskGuard(db, 'git.view'), async (c) => {
    const { attempt_id } = readQuery(c, diffQuery);
    return c.json(await taskDiff(await reviewTarget(db, c.var.task, c.var.project, attempt_id)));
  });

  // Guards for landPermissions (attempts/task-landing.ts), which a workflow's land step checks too.
  app.post('/tasks/:id/land', taskGuard(db, 'git.write'), taskGuard(db, 'tasks.write'), async (c) => {
    const body = await readJson(c, landBody);
    const landed = await landing.land(c.var.task, c.var.project, c.var.principal, {
      strategy: body.strategy,
      message: body.message,
      removeWorktree: body.remove_worktree,
      attemptId: body.attempt_id,
    });
    const task = await findTask(db, c.var.task.id);
    return c.json({ ...landed, task: task ? taskView(task) : null });
  });

  app.post('/tasks/:id/pull-request', taskGuard(db, 'git.write'), taskGuard(db, 'tasks.write'), async (c) => {
    const body = await readJson(c, pullRequestBody);
    const { target, opened } = await landing.exclusive(c.var.project.id, async () => {
      const target = await landing.settledTarget(c.var.task, c.var.project, body.attempt_id);
      const opened = await openPullRequest(target, c.var.task, {
        title: body.title,
        body: body.body,
        identity: landingIdentity(c.var.principal),
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
