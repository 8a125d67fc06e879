/**
 * @module Who may do what in a project. Global owners and admins reach every project with their
 * own role; everyone else reaches a project only as a member, with the member role capped at
 * their global role (demoting a user takes effect in every project at once). A project
 * the caller cannot see answers 404 (its existence is not disclosed); a visible project where
 * the role lacks the permission answers 403.
 */
import type { MiddlewareHandler } from 'hono';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, Principal } from '../http/app-env.js';
import { readId } from '../http/request-input.js';
import { findProject, memberRole } from '../projects/project-store.js';
import { findTask } from '../tasks/task-store.js';
import { type Permission, roleHas } from './permissions.js';
import { isRole, type Role, reachesEveryProject, weakerRole } from './roles.js';

export function denied(permission: Permission): ApiError {
  return new ApiError('PERMISSION_DENIED', `your role does not grant ${permission}`, { permission });
}

/** A permission that is not tied to one project (users, audit, creating projects). */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!roleHas(c.var.principal.role, permission)) throw denied(permission);
    await next();
  };
}

export async function effectiveProjectRole(
  db: WorkspacedDb,
  principal: Principal,
  project: ProjectRow,
): Promise<Role | undefined> {
  if (reachesEveryProject(principal.role)) return principal.role;
  const role = await memberRole(db, project.id, principal.id);
  return role !== undefined && isRole(role) ? weakerRole(role, principal.role) : undefined;
}

async function authorizeProject(
  db: WorkspacedDb,
  principal: Principal,
  project: ProjectRow | undefined,
  permission: Permission,
): Promise<{ project: ProjectRow; role: Role }> {
  if (!project) throw notFound('project');
  const role = await effectiveProjectRole(db, principal, project);
  if (!role) throw notFound('project');
  if (!roleHas(role, permission)) throw denied(permission);
  return { project, role };
}

/** Guards `/projects/:id/...`: sets `project` and `projectRole`. */
export function projectGuard(db: WorkspacedDb, permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { project, role } = await authorizeProject(
      db,
      c.var.principal,
      await findProject(db, readId(c)),
      permission,
    );
    c.set('project', project);
    c.set('projectRole', role);
    await next();
  };
}

/** Guards `/tasks/:id/...`: the task's project decides; sets `task`, `project`, `projectRole`. */
export function taskGuard(db: WorkspacedDb, permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const task = await findTask(db, readId(c));
    if (!task) throw notFound('task');
    const { project, role } = await authorizeProject(
      db,
      c.var.principal,
      await findProject(db, task.project_id),
      permission,
    ).catch((error: unknown) => {
      // A task in a project the caller cannot see is as invisible as the project.
      throw error instanceof ApiError && error.status === 404 ? notFound('task') : error;
    });
    c.set('task', task);
    c.set('project', project);
    c.set('projectRole', role);
    await next();
  };
}
