/**
 * @module Workflow definitions and runs in SQLite. A run keeps its steps (with the substituted
 * argument arrays and each step's state) as one JSON column, written whole on every change
 * under the runner's per-run lock, and answers as `RunView`.
 */

import type { LandStrategy } from '../attempts/land.js';
import type { LandSummary } from '../attempts/task-landing.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { WorkflowDefinitionRow, WorkflowRunRow } from '../db/schema.js';
import type { CreateWorkflow, RunStatus, StepKind, StepStatus, WorkflowStep } from './workflow-schema.js';

interface DefinitionView {
  name: string;
  steps: WorkflowStep[];
  created_by: string;
  created_at: string;
}

export interface RunStep {
  name: string;
  kind: StepKind;
  agents: string[];
  /** The program and its arguments after substitution (empty for an approval). */
  argv: string[];
  status: StepStatus;
  /** The terminal the step runs in (watch it on `/terminals/{id}/ws` while it lives). */
  terminal_id: number | null;
  exit_code: number | null;
  /** The last 4 KiB of the terminal's output, kept once it exits (the terminal does not stay). */
  output_tail: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Who approved, advanced or cancelled the step (a user id). */
  decided_by: string | null;
  /** A land step's strategy. */
  strategy?: LandStrategy;
  /** What a land step landed (the land route's answer, without the task). */
  landed?: LandSummary | null;
  /** Why a land step failed: the land route's error object (`code`, `message`, `paths`...). */
  land_error?: Record<string, unknown> | null;
}

export interface RunRecord {
  id: number;
  workflow: string;
  project_id: number;
  task_id: number | null;
  status: RunStatus;
  current_step: number | null;
  variables: Record<string, string>;
  steps: RunStep[];
  error: string | null;
  started_by: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export function definitionView(row: WorkflowDefinitionRow): DefinitionView {
  return {
    name: row.name,
    steps: JSON.parse(row.steps) as WorkflowStep[],
    created_by: row.created_by,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The JSON a client sees; `terminal_id` is the current step's terminal, if it runs in one. */
export function runView(run: RunRecord) {
  const current = run.current_step === null ? undefined : run.steps[run.current_step];
  return {
    id: run.id,
    workflow: run.workflow,
    project_id: run.project_id,
    task_id: run.task_id,
    status: run.status,
    current_step: run.current_step,
    terminal_id: current?.status === 'running' ? current.terminal_id : null,
    variables: run.variables,
    steps: run.steps,
    error: run.error,
    started_by: run.started_by,
    created_at: new Date(run.created_at).toISOString(),
    updated_at: new Date(run.updated_at).toISOString(),
    finished_at: run.finished_at === null ? null : new Date(run.finished_at).toISOString(),
  };
}

function toRecord(row: WorkflowRunRow): RunRecord {
  return {
    ...row,
    status: row.status as RunStatus,
    variables: JSON.parse(row.variables) as Record<string, string>,
    steps: JSON.parse(row.steps) as RunStep[],
  };
}

export async function listDefinitions(db: WorkspacedDb): Promise<WorkflowDefinitionRow[]> {
  return db.selectFrom('workflow_definitions').selectAll().orderBy('name').execute();
}

export async function findDefinition(db: WorkspacedDb, name: string) {
  return db.selectFrom('workflow_definitions').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Inserts the definition; false when the name is taken. */
export async function insertDefinition(db: WorkspacedDb, input: CreateWorkflow, createdBy: string) {
  const row = await db
    .insertInto('workflow_definitions')
    .values({
      name: input.name,
      steps: JSON.stringify(input.steps),
      created_by: createdBy,
      created_at: Date.now(),
    })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row;
}

export async function insertRun(
  db: WorkspacedDb,
  run: Omit<RunRecord, 'id' | 'created_at' | 'updated_at'>,
): Promise<RunRecord> {
  const now = Date.now();
  const row = await db
    .insertInto('workflow_runs')
    .values({
      ...run,
      variables: JSON.stringify(run.variables),
      steps: JSON.stringify(run.steps),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Writes the run's state back (status, step, steps, error); bumps `updated_at`. */
export async function saveRun(db: WorkspacedDb, run: RunRecord): Promise<void> {
  run.updated_at = Date.now();
  await db
    .updateTable('workflow_runs')
    .set({
      status: run.status,
      current_step: run.current_step,
      steps: JSON.stringify(run.steps),
      error: run.error,
      updated_at: run.updated_at,
      finished_at: run.finished_at,
    })
    .where('id', '=', run.id)
    .execute();
}

export async function findRun(db: WorkspacedDb, id: number): Promise<RunRecord | undefined> {
  const row = await db.selectFrom('workflow_runs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/** Newest first, optionally of one workflow, of the given projects only. */
export async function newestRuns(
  db: WorkspacedDb,
  filter: { projectIds: number[]; workflow?: string },
  limit: number,
): Promise<RunRecord[]> {
  if (filter.projectIds.length === 0) return [];
  let query = db.selectFrom('workflow_runs').selectAll().where('project_id', 'in', filter.projectIds);
  if (filter.workflow !== undefined) query = query.where('workflow', '=', filter.workflow);
  return (await query.orderBy('id', 'desc').limit(limit).execute()).map(toRecord);
}

export async function activeRuns(db: WorkspacedDb): Promise<RunRecord[]> {
  const rows = await db
    .selectFrom('workflow_runs')
    .selectAll()
    .where('status', 'in', ['running', 'waiting_approval'])
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}
