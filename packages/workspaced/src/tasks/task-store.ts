/**
 * @module Tasks in SQLite with optimistic concurrency: every change bumps `version`, and a
 * change made against a stale version fails with 409 and the task as it now is.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { TaskRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { CreateTask, TaskState, UpdateTask } from './task-schema.js';

interface TaskView {
  id: number;
  project_id: number;
  title: string;
  description: string;
  priority: number;
  state: string;
  version: number;
  branch: string | null;
  worktree_path: string | null;
  pull_request_url: string | null;
  created_at: string;
  updated_at: string;
}

export function taskView(row: TaskRow): TaskView {
  return {
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    priority: row.priority,
    state: row.state,
    version: row.version,
    branch: row.branch,
    worktree_path: row.worktree_path,
    pull_request_url: row.pull_request_url,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function findTask(db: WorkspacedDb, id: number): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listTasks(db: WorkspacedDb, projectId: number): Promise<TaskRow[]> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('priority', 'desc')
    .orderBy('id', 'asc')
    .execute();
}

export async function createTask(
  db: WorkspacedDb,
  projectId: number,
  input: CreateTask,
  createdBy: string,
  now = Date.now(),
): Promise<TaskRow> {
  return db
    .insertInto('tasks')
    .values({
      project_id: projectId,
      title: input.title,
      description: input.description,
      priority: input.priority,
      state: input.state,
      version: 1,
      branch: null,
      worktree_path: null,
      pull_request_url: null,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Applies a patch; with `version` given, only to that version. */
export async function updateTask(db: WorkspacedDb, id: number, patch: UpdateTask): Promise<TaskRow> {
  const { version, ...fields } = patch;
  let query = db
    .updateTable('tasks')
    .set((eb) => ({ ...fields, version: eb('version', '+', 1), updated_at: Date.now() }))
    .where('id', '=', id);
  if (version !== undefined) query = query.where('version', '=', version);
  const row = await query.returningAll().executeTakeFirst();
  return row ?? (await staleOrMissing(db, id));
}

export async function moveTask(
  db: WorkspacedDb,
  id: number,
  state: TaskState,
  version: number,
): Promise<TaskRow> {
  const row = await db
    .updateTable('tasks')
    .set((eb) => ({ state, version: eb('version', '+', 1), updated_at: Date.now() }))
    .where('id', '=', id)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
  return row ?? (await staleOrMissing(db, id));
}

export async function recordWorktree(db: WorkspacedDb, id: number, branch: string, worktreePath: string) {
  return db
    .updateTable('tasks')
    .set({ branch, worktree_path: worktreePath })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A move made by the daemon itself (an agent started, exited, its work landed): no version check. */
export async function setTaskState(db: WorkspacedDb, id: number, state: TaskState): Promise<TaskRow> {
  return db
    .updateTable('tasks')
    .set((eb) => ({ state, version: eb('version', '+', 1), updated_at: Date.now() }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function recordPullRequest(db: WorkspacedDb, id: number, url: string): Promise<TaskRow> {
  return db
    .updateTable('tasks')
    .set((eb) => ({ pull_request_url: url, version: eb('version', '+', 1), updated_at: Date.now() }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteTask(db: WorkspacedDb, id: number): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', id).execute();
}

async function staleOrMissing(db: WorkspacedDb, id: number): Promise<never> {
  const current = await findTask(db, id);
  if (!current) throw notFound('task');
  throw new ApiError(
    'VERSION_CONFLICT',
    `the task changed since version you sent; it is now at version ${current.version}`,
    {
      task: taskView(current),
    },
  );
}
