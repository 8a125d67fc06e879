/**
 * @module Who may do what in a project, without any HTTP framework (the Hono guards of
 * project-access.ts, the sockets and the event streams all ask here). Global owners and admins
 * reach every project with their own role; everyone else reaches a project only as a member,
 * with the member role capped at their global role (demoting a user takes effect in every
 * project at once). A project the caller cannot see answers 404 (its existence is not
 * disclosed); a visible project where the role lacks the permission answers 403.
 */
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import { listMemberProjects, memberRole } from '../projects/project-store.js';
import { type Permission, roleHas } from './permissions.js';
import { isRole, type Role, reachesEveryProject, weakerRole } from './roles.js';

export function denied(permission: Permission): ApiError {
  return new ApiError('PERMISSION_DENIED', `your role does not grant ${permission}`, { permission });
}

/** A membership's role capped at the user's global role; none for a role the daemon does not know. */
export function cappedMemberRole(memberRole: string | undefined, globalRole: Role): Role | undefined {
  return memberRole !== undefined && isRole(memberRole) ? weakerRole(memberRole, globalRole) : undefined;
}

export async function effectiveProjectRole(
  db: WorkspacedDb,
  principal: Principal,
  project: ProjectRow,
): Promise<Role | undefined> {
  if (reachesEveryProject(principal.role)) return principal.role;
  return cappedMemberRole(await memberRole(db, project.id, principal.id), principal.role);
}

/** Whether `permission` holds for the user in at least one project (a right with no project of its own). */
export async function grantedInSomeProject(
  db: WorkspacedDb,
  user: { id: string; role: string },
  permission: Permission,
): Promise<boolean> {
  const { role } = user;
  if (!isRole(role) || !roleHas(role, permission)) return false;
  if (reachesEveryProject(role)) return true;
  return (await listMemberProjects(db, user.id)).some(({ member_role }) => {
    const capped = cappedMemberRole(member_role, role);
    return capped !== undefined && roleHas(capped, permission);
  });
}

/** The caller's role in `project` if it grants `permission`; 404 if they cannot see it, 403 if it does not. */
export async function authorizeProject(
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
