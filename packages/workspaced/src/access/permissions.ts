/**
 * @module The permission table: what each role may do. Routes name the permission they need;
 * this table is the only place that says which roles hold it (README "Roles and permissions").
 * A new feature's route names one of these, or adds a row here and so decides which roles
 * hold it.
 */
import type { Role } from './roles.js';

export const permissions = [
  'project.view',
  'project.manage',
  'terminal.view',
  'terminal.write',
  'terminal.create',
  'terminal.terminate',
  'agent.view',
  'agent.start',
  'agent.control',
  'agent.approve',
  'files.view',
  'files.write',
  'git.view',
  'git.write',
  'tasks.view',
  'tasks.write',
  'services.view',
  'services.control',
  'settings.view',
  'settings.manage',
  'users.view',
  'users.manage',
  'audit.view',
  'notifications.manage',
  'events.publish',
] as const;
export type Permission = (typeof permissions)[number];

const everything = new Set<Permission>(permissions);

/** Operators run things (terminals, agents, services) but manage no project, user or setting. */
const operator = new Set<Permission>(
  permissions.filter(
    (permission) =>
      permission !== 'project.manage' &&
      permission !== 'audit.view' &&
      !permission.startsWith('settings.') &&
      !permission.startsWith('users.'),
  ),
);

/** Developers work inside projects: files, git, tasks, their own terminals and agents. */
const developer = new Set<Permission>([
  'project.view',
  'terminal.view',
  'terminal.write',
  'terminal.create',
  'agent.view',
  'agent.start',
  'files.view',
  'files.write',
  'git.view',
  'git.write',
  'tasks.view',
  'tasks.write',
  'services.view',
  'notifications.manage',
  'events.publish',
]);

/**
 * Viewers read what operators may read: every `*.view` permission except the administrative
 * ones (users, settings, audit), which the original granted viewers but not operators.
 */
const viewer = new Set<Permission>([...operator].filter((permission) => permission.endsWith('.view')));

export const rolePermissions: Record<Role, ReadonlySet<Permission>> = {
  owner: everything,
  admin: everything,
  operator,
  developer,
  viewer,
};

export function roleHas(role: Role, permission: Permission): boolean {
  return rolePermissions[role].has(permission);
}
