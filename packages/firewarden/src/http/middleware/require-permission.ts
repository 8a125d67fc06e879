/**
 * @module Route guard: a session (401 `AUTH_REQUIRED`) whose role has the permission
 * (403 `AUTH_FORBIDDEN`).
 */
import { createMiddleware } from 'hono/factory';
import { can, type Permission } from '../../auth/roles.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';

export function requirePermission(permission: Permission) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const auth = c.get('auth');
    if (!auth) throw new ApiError('AUTH_REQUIRED', 'sign in first');
    if (!can(auth.user.role, permission)) {
      throw new ApiError('AUTH_FORBIDDEN', `the ${auth.user.role} role may not do this (${permission})`);
    }
    await next();
  });
}
