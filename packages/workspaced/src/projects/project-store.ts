/**
 * @module Projects and their members in SQLite. A project is a name and a folder (and one
 * setting, `land_requires_workflow`); deleting one removes only these rows (its tasks and
 * memberships go with it), never a file.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectRole } from '../access/roles.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { MemberRow, ProjectRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';

interface ProjectView {
  id: number;
  name: string;
  path: string;
  /** The one workflow that may land the project's tasks (its approval guards landing), else null. */
  land_requires_workflow: string | null;
  created_at: string;
  /** The caller's role in this project (a global owner/admin sees their global role). */
  role?: string;
}

export function projectView(row: ProjectRow, role?: string): ProjectView {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    land_requires_workflow: row.land_requires_workflow,
    created_at: new Date(row.created_at).toISOString(),
    ...(role ? { role } : {}),
  };
}

/** The folder must exist and be a directory; the canonical path is stored. */
export async function canonicalProjectFolder(input: string): Promise<string> {
  if (!path.isAbsolute(input)) throw new ApiError('INVALID_PATH', 'project path must be absolute');
  let real: string;
  try {
    real = await realpath(input);
  } catch {
    throw new ApiError('PROJECT_PATH_MISSING', 'project path does not exist');
  }
  const stats = await stat(real).catch(() => null);
  if (!stats?.isDirectory()) throw new ApiError('NOT_A_DIRECTORY', 'project path is not a folder');
  if (real === path.parse(real).root)
    throw new ApiError('INVALID_PATH', 'the file-system root cannot be a project');
  return real;
}

export async function createProject(db: WorkspacedDb, name: string, folder: string, createdBy: string) {
  return db
    .insertInto('projects')
    .values({ name, path: folder, created_by: createdBy, created_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setLandRequiresWorkflow(
  db: WorkspacedDb,
  id: number,
  workflow: string | null,
): Promise<ProjectRow> {
  return db
    .updateTable('projects')
    .set({ land_requires_workflow: workflow })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findProject(db: WorkspacedDb, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listAllProjects(db: WorkspacedDb): Promise<ProjectRow[]> {
  return db.selectFrom('projects').selectAll().orderBy('id').execute();
}

/** Projects the user is a member of, with the member role. */
export function listMemberProjects(db: WorkspacedDb, userId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('project_members', 'project_members.project_id', 'projects.id')
    .selectAll('projects')
    .select('project_members.role as member_role')
    .where('project_members.user_id', '=', userId)
    .orderBy('projects.id')
    .execute();
}

export async function deleteProject(db: WorkspacedDb, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tasks').where('project_id', '=', id).execute();
    await trx.deleteFrom('project_members').where('project_id', '=', id).execute();
    await trx.deleteFrom('projects').where('id', '=', id).execute();
  });
}

export async function memberRole(
  db: WorkspacedDb,
  projectId: number,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('project_members')
    .select('role')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export function listMembers(db: WorkspacedDb, projectId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('project_members')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('user_id')
    .execute();
}

export async function setMember(db: WorkspacedDb, projectId: number, userId: string, role: ProjectRole) {
  return db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role, updated_at: Date.now() })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ role, updated_at: Date.now() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function removeMember(db: WorkspacedDb, projectId: number, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('project_members')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
