/** The daemon's answers the UI reads (README "API"). */

import type { FileDiff } from '../../src/git/tree-diff.js';

export interface User {
  id: string;
  username: string;
  display_name: string | null;
  role: string;
}

export interface SessionAnswer {
  user: User;
  csrf: string;
  /** What the user's global role grants (README "Roles and permissions"); a project may grant less. */
  permissions: string[];
}

export interface Project {
  id: number;
  name: string;
  path: string;
  role: string;
}

export interface FileEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
}

export const taskStates = ['backlog', 'todo', 'running', 'needs_input', 'review', 'done', 'failed'] as const;
export type TaskState = (typeof taskStates)[number];

export interface Task {
  id: number;
  project_id: number;
  title: string;
  description: string;
  priority: number;
  state: TaskState;
  version: number;
}

export interface Terminal {
  id: number;
  project_id: number;
  shell: string;
  cols: number;
  rows: number;
}

export interface Workflow {
  name: string;
  steps: { name: string; kind: 'agent' | 'approval' }[];
}

export interface WorkflowRun {
  id: number;
  workflow: string;
  project_id: number;
  status: string;
  current_step: number | null;
  /** The terminal of the running agent step, null between agent steps. */
  terminal_id: number | null;
  error: string | null;
  updated_at: string;
  steps: { name: string; kind: string; status: string; output_tail?: string }[];
}

export interface AttentionItem {
  id: number;
  kind: string;
  priority: number;
  project_id: number;
  summary: string;
  created_at: string;
  resolved_at: string | null;
}

/** `GET /agent-profiles`: how to start one agent, and whether it is on the daemon's PATH. */
export interface AgentProfile {
  name: string;
  command: string;
  built_in: boolean;
  installed: boolean;
}

export interface Attempt {
  id: number;
  task_id: number;
  profile: string;
  terminal_id: number;
  branch: string;
  base_branch: string;
  state: 'running' | 'completed' | 'failed' | 'stopped';
  exit_code: number | null;
  landed_commit: string | null;
  started_at: string;
}

/** One file of a diff: the daemon's own type, imported for its shape only (no code crosses). */
export type DiffFile = FileDiff;

/** `GET /tasks/{id}/diff`. */
export interface TaskDiff {
  attempt_id: number;
  branch: string;
  base_branch: string;
  uncommitted: boolean;
  additions: number;
  deletions: number;
  truncated: boolean;
  files: DiffFile[];
}
