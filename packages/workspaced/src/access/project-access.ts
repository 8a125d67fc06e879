/**
 * @module The Hono guards over the project permission check (project-permission.ts): a route
 * declares the permission it needs, the guard finds the project or task and sets it with the
 * caller's role on the request.
 */
import type { MiddlewareHandler } from 'hono';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readId } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import { findTask } from '../tasks/task-store.js';
import { type Permission, roleHas } from './permissions.js';
import { authorizeProject, denied } from './project-permission.js';

/** A permission that is not tied to one project (users, audit, creating projects). */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!roleHas(c.var.principal.role, permission)) throw denied(permission);
    await next();
  };
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
