/**
 * @module From web-auth's user record to the routes' `Principal` (the JSON a client sees of a
 * user is web-auth's `userView`, shared with firewarden).
 */
import type { User } from '@suite/web-auth';
import { isRole, type Role } from '../access/roles.js';
import { ApiError } from '../http/api-error.js';

/** The signed-in user as routes, sockets and the permission check see them. */
export interface Principal {
  id: string;
  username: string;
  display_name: string | null;
  role: Role;
}

export function toPrincipal(user: User): Principal {
  // A role this daemon does not know (edited by hand in the database) grants nothing.
  if (!isRole(user.role)) throw new ApiError('PERMISSION_DENIED', 'your account has no valid role');
  return { id: user.id, username: user.username, display_name: user.displayName, role: user.role };
}
