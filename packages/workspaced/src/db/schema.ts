/**
 * @module Row types of the daemon's own tables (web-auth's `auth_*` tables are typed by
 * that package). Times are Unix milliseconds; SQLite integers.
 */
import type { Generated, Selectable } from 'kysely';

export interface ProjectTable {
  id: Generated<number>;
  name: string;
  /** The canonical (realpath) root; every file and git path is resolved inside it. */
  path: string;
  created_by: string;
  created_at: number;
}

export interface ProjectMemberTable {
  project_id: number;
  user_id: string;
  role: string;
  updated_at: number;
}

export interface TaskTable {
  id: Generated<number>;
  project_id: number;
  title: string;
  description: string;
  priority: number;
  state: string;
  version: number;
  /** Set once a worktree is made, so renaming the task never changes its branch. */
  branch: string | null;
  worktree_path: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface WorkspacedTables {
  projects: ProjectTable;
  project_members: ProjectMemberTable;
  tasks: TaskTable;
}

export type ProjectRow = Selectable<ProjectTable>;
export type TaskRow = Selectable<TaskTable>;
export type MemberRow = Selectable<ProjectMemberTable>;
