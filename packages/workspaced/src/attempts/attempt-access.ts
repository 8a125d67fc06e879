/**
 * @module Who may reach an attempt: the role its task's project gives the caller (project
 * access rules of access/project-permission.ts). An attempt in a project the caller cannot see,
 * or whose role lacks `agent.view`, is as invisible as the project (404).
 */
import { type Permission, roleHas } from '../access/permissions.js';
import { authorizeProject, denied } from '../access/project-permission.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { TaskAttemptRow, TaskRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import { findProject } from '../projects/project-store.js';
import { findTask } from '../tasks/task-store.js';
import { findAttempt, listAttempts } from './attempt-store.js';

export async function authorizeAttempt(
  db: WorkspacedDb,
  principal: Principal,
  id: number,
  permissions: readonly Permission[],
) {
  const attempt = await findAttempt(db, id);
  if (!attempt) throw notFound('attempt');
  const { project, role } = await authorizeProject(
    db,
    principal,
    await findProject(db, attempt.project_id),
    'agent.view',
  ).catch((error: unknown) => {
    throw error instanceof ApiError && error.status >= 400 ? notFound('attempt') : error;
  });
  for (const permission of permissions) if (!roleHas(role, permission)) throw denied(permission);
  const task = await findTask(db, attempt.task_id);
  if (!task) throw notFound('attempt');
  return { attempt, task, project, role };
}

/** The attempt a task route works on: `attemptId`, or the task's newest; none yet is 409 NO_ATTEMPT. */
export async function taskAttempt(
  db: WorkspacedDb,
  task: TaskRow,
  attemptId: number | undefined,
): Promise<TaskAttemptRow> {
  if (attemptId !== undefined) {
    const attempt = await findAttempt(db, attemptId);
    if (!attempt || attempt.task_id !== task.id) throw notFound('attempt');
    return attempt;
  }
  const [newest] = await listAttempts(db, task.id);
  if (!newest)
    throw new ApiError('NO_ATTEMPT', 'the task has no attempt yet; start one (POST /tasks/{id}/attempts)');
  return newest;
}
