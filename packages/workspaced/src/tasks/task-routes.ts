/**
 * @module Tasks: `GET/POST /projects/{id}/tasks`, `PATCH/DELETE /tasks/{id}`,
 * `POST /tasks/{id}/move` {state, version} (409 with the current task when stale) and
 * `POST /tasks/{id}/worktree` (create or reuse the task's worktree).
 */
import type { Hono } from 'hono';
import { projectGuard, taskGuard } from '../access/project-access.js';
import { canonicalRoot } from '../files/rooted-path.js';
import { openProjectRepository } from '../git/project-repository.js';
import { notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { noteTaskState } from '../realtime/task-attention.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { publishTask, publishTaskDeleted } from './task-events.js';
import { createTaskSchema, moveTaskSchema, updateTaskSchema } from './task-schema.js';
import {
  createTask,
  deleteTask,
  findTask,
  listTasks,
  moveTask,
  recordWorktree,
  taskView,
  updateTask,
} from './task-store.js';
import { ensureTaskWorktree } from './task-worktree.js';

export function registerTaskRoutes(
  app: Hono<AppEnv>,
  { db, dataDir, attention, events }: DaemonContext,
): void {
  // Two clicks on "open worktree" must not race two `git worktree add` for one task.
  const worktreeLocks = new KeyedMutex();

  app.get('/projects/:id/tasks', projectGuard(db, 'tasks.view'), async (c) =>
    c.json({ tasks: (await listTasks(db, c.var.project.id)).map(taskView) }),
  );

  app.post('/projects/:id/tasks', projectGuard(db, 'tasks.write'), async (c) => {
    const input = await readJson(c, createTaskSchema);
    const task = await createTask(db, c.var.project.id, input, c.var.principal.id);
    publishTask(events, 'task.created', task);
    return c.json(taskView(task), 201);
  });

  app.patch('/tasks/:id', taskGuard(db, 'tasks.write'), async (c) => {
    const patch = await readJson(c, updateTaskSchema);
    const task = await updateTask(db, c.var.task.id, patch);
    publishTask(events, 'task.updated', task);
    return c.json(taskView(task));
  });

  app.post('/tasks/:id/move', taskGuard(db, 'tasks.write'), async (c) => {
    const { state, version } = await readJson(c, moveTaskSchema);
    const task = await moveTask(db, c.var.task.id, state, version);
    publishTask(events, 'task.updated', task);
    noteTaskState(attention, task);
    return c.json(taskView(task));
  });

  app.delete('/tasks/:id', taskGuard(db, 'tasks.write'), async (c) => {
    await deleteTask(db, c.var.task.id);
    publishTaskDeleted(events, c.var.task);
    return c.body(null, 204);
  });

  // Creating a worktree writes a branch: it needs git.write as well as tasks.write.
  app.post('/tasks/:id/worktree', taskGuard(db, 'tasks.write'), taskGuard(db, 'git.write'), async (c) => {
    const id = c.var.task.id;
    const result = await worktreeLocks.run(String(id), async () => {
      const task = await findTask(db, id);
      if (!task) throw notFound('task');
      const repository = await openProjectRepository(await canonicalRoot(c.var.project.path));
      const worktree = await ensureTaskWorktree(repository, dataDir, task);
      const recorded = task.branch === worktree.branch && task.worktree_path === worktree.path;
      const updated = recorded ? task : await recordWorktree(db, id, worktree.branch, worktree.path);
      if (!recorded) publishTask(events, 'task.updated', updated);
      return { ...worktree, task: taskView(updated) };
    });
    return c.json(result, result.created ? 201 : 200);
  });
}
