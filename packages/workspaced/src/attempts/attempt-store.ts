/**
 * @module Attempts in SQLite (`task_attempts`) and their JSON view. An attempt's row outlives
 * its terminal: the state, exit code and branch stay readable after the agent exited or the
 * daemon restarted.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { TaskAttemptRow } from '../db/schema.js';

const attemptStates = ['running', 'completed', 'failed', 'stopped'] as const;
export type AttemptState = (typeof attemptStates)[number];

interface AttemptView {
  id: number;
  task_id: number;
  project_id: number;
  profile: string;
  terminal_id: number | null;
  branch: string;
  base_branch: string;
  worktree_path: string;
  state: string;
  exit_code: number | null;
  /** The end of the agent's output once it exited (null while it runs, or after a restart killed it). */
  output_tail: string | null;
  landed_commit: string | null;
  created_by: string;
  started_at: string;
  finished_at: string | null;
}

export function attemptView(row: TaskAttemptRow): AttemptView {
  return {
    id: row.id,
    task_id: row.task_id,
    project_id: row.project_id,
    profile: row.profile,
    terminal_id: row.terminal_id,
    branch: row.branch,
    base_branch: row.base_branch,
    worktree_path: row.worktree_path,
    state: row.state,
    exit_code: row.exit_code,
    output_tail: row.output_tail,
    landed_commit: row.landed_commit,
    created_by: row.created_by,
    started_at: new Date(row.started_at).toISOString(),
    finished_at: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}

interface NewAttempt {
  task_id: number;
  project_id: number;
  profile: string;
  branch: string;
  base_branch: string;
  worktree_path: string;
  created_by: string;
}

export function insertAttempt(db: WorkspacedDb, attempt: NewAttempt): Promise<TaskAttemptRow> {
  return db
    .insertInto('task_attempts')
    .values({
      ...attempt,
      terminal_id: null,
      state: 'running',
      exit_code: null,
      output_tail: null,
      landed_commit: null,
      started_at: Date.now(),
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findAttempt(db: WorkspacedDb, id: number): Promise<TaskAttemptRow | undefined> {
  return db.selectFrom('task_attempts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first. */
export function listAttempts(db: WorkspacedDb, taskId: number): Promise<TaskAttemptRow[]> {
  return db
    .selectFrom('task_attempts')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('id', 'desc')
    .execute();
}

export function projectAttempts(db: WorkspacedDb, projectId: number): Promise<TaskAttemptRow[]> {
  return db.selectFrom('task_attempts').selectAll().where('project_id', '=', projectId).execute();
}

export function runningAttempts(db: WorkspacedDb): Promise<TaskAttemptRow[]> {
  return db.selectFrom('task_attempts').selectAll().where('state', '=', 'running').execute();
}

export function updateAttempt(
  db: WorkspacedDb,
  id: number,
  fields: Partial<
    Pick<
      TaskAttemptRow,
      'terminal_id' | 'state' | 'exit_code' | 'output_tail' | 'landed_commit' | 'finished_at' | 'started_at'
    >
  >,
): Promise<TaskAttemptRow> {
  return db
    .updateTable('task_attempts')
    .set(fields)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
