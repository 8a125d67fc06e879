/**
 * @module workspaced as a library: start the daemon in-process, or build its Hono app.
 */
export { type Permission, permissions, rolePermissions } from './access/permissions.js';
export { type Role, roles } from './access/roles.js';
export { type DaemonOptions, startDaemon } from './daemon.js';
export { type AppOptions, createApp } from './http/app.js';
export { checkBind, isLoopbackHost } from './security/bind-policy.js';
