/**
 * @module The five roles, most powerful first, and which roles a project member may hold.
 */
import { z } from 'zod';

export const roles = ['owner', 'admin', 'operator', 'developer', 'viewer'] as const;
export type Role = (typeof roles)[number];
export const roleSchema = z.enum(roles);

/**
 * Roles a project membership can hold. Owners and admins reach every project anyway, and a
 * membership never lifts a user above their global role, so `owner` and `admin` would add nothing.
 */
const projectRoles = ['operator', 'developer', 'viewer'] as const;
export type ProjectRole = (typeof projectRoles)[number];
export const projectRoleSchema = z.enum(projectRoles);

/** 0 is the strongest. */
function roleRank(role: Role): number {
  return roles.indexOf(role);
}

/** True when `role` is at most as strong as `limit` (nobody hands out more than they hold). */
export function roleWithin(role: Role, limit: Role): boolean {
  return roleRank(role) >= roleRank(limit);
}

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}

/** The less powerful of two roles (a project membership never lifts a user above their role). */
export function weakerRole(a: Role, b: Role): Role {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** Owners and admins reach every project with their own role, member or not. */
export function reachesEveryProject(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
