/**
 * @module Who may learn of an event delivered outside the event socket (notification rules,
 * webhooks): events of `project:<id>` streams need, in that project, the permission the REST
 * route reading the same resource needs. Other streams (`terminal:<id>` repeats the project
 * stream's terminal events; `user:<id>` carries notifications) are never forwarded.
 */

import { type Permission, roleHas } from '../access/permissions.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { parseId } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import type { RealtimeEvent } from './event-bus.js';

const permissionByNamespace: Record<string, Permission> = {
  attention: 'agent.view',
  agent: 'agent.view',
  attempt: 'agent.view',
  workflow: 'agent.view',
  task: 'tasks.view',
  terminal: 'terminal.view',
};

/** The project of a `project:<id>` stream, or undefined for every other stream. */
export function eventProjectId(event: RealtimeEvent): number | undefined {
  return event.stream.startsWith('project:') ? parseId(event.stream.slice('project:'.length)) : undefined;
}

function permissionToSee(type: string): Permission {
  return permissionByNamespace[type.slice(0, type.indexOf('.'))] ?? 'project.view';
}

/** True when `principal` may be told about `event`. */
export async function maySee(db: WorkspacedDb, principal: Principal, event: RealtimeEvent): Promise<boolean> {
  const projectId = eventProjectId(event);
  if (projectId === undefined) return false;
  const project = await findProject(db, projectId);
  const role = project ? await effectiveProjectRole(db, principal, project) : undefined;
  return role !== undefined && roleHas(role, permissionToSee(event.type));
}
