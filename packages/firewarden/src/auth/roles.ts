/**
 * @module Roles and what each may do. `admin` manages everything; `viewer` reads the state of the
 * firewall and the service but changes nothing except its own notification read marks.
 */
export const roles = ['admin', 'viewer'] as const;
export type Role = (typeof roles)[number];

export type Permission =
  | 'settings.read'
  | 'settings.write'
  | 'users.read'
  | 'users.write'
  | 'audit.read'
  | 'diagnostics.read'
  | 'notifications.read'
  | 'firewall.read'
  | 'firewall.write'
  | 'extensions.read'
  | 'extensions.manage';

const viewerPermissions: readonly Permission[] = [
  'settings.read',
  'diagnostics.read',
  'notifications.read',
  'firewall.read',
  'extensions.read',
];

const permissionsByRole: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set<Permission>([
    ...viewerPermissions,
    'settings.write',
    'users.read',
    'users.write',
    'audit.read',
    'firewall.write',
    'extensions.manage',
  ]),
  viewer: new Set(viewerPermissions),
};

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}

export function can(role: string, permission: Permission): boolean {
  return isRole(role) && permissionsByRole[role].has(permission);
}
