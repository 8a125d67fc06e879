/**
 * @module Who may do what with a terminal: the terminal's project decides, as for tasks. A
 * terminal in a project the caller cannot see answers 404, like the project itself; a visible
 * one whose role lacks the permission answers 403.
 */

import { type Permission, roleHas } from '../access/permissions.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import type { Role } from '../access/roles.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError, notFound } from '../http/api-error.js';
import { findProject } from '../projects/project-store.js';
import type { TerminalManager } from './terminal-manager.js';
import type { TerminalSession } from './terminal-session.js';

/** The caller's role in the terminal's project, or undefined when they cannot see it. */
export async function terminalRole(
  db: WorkspacedDb,
  principal: Principal,
  session: TerminalSession,
): Promise<Role | undefined> {
  const project = await findProject(db, session.info.projectId);
  return project ? effectiveProjectRole(db, principal, project) : undefined;
}

export async function authorizeTerminal(
  db: WorkspacedDb,
  terminals: TerminalManager,
  principal: Principal,
  id: number,
  permission: Permission,
): Promise<{ session: TerminalSession; role: Role }> {
  const session = terminals.get(id);
  const role = session ? await terminalRole(db, principal, session) : undefined;
  if (!session || !role) throw notFound('terminal');
  if (!roleHas(role, permission))
    throw new ApiError('PERMISSION_DENIED', `your role does not grant ${permission}`, { permission });
  return { session, role };
}
