/**
 * @module Records every mutation made under a session or a platform token in the audit trail, once its answer is
 * known: `action` is the method and route (`POST /projects/:id/tasks`), `target` the concrete
 * path, `outcome` success / denied / failure with the status in `detail`. Sign-in, sign-out
 * and setup write their own entries (web-auth and auth/session-routes.ts).
 */
import type { AuditLog } from '@suite/web-auth';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { apiPrefix } from '../http/api-prefix.js';
import type { AppEnv } from '../http/app-env.js';
import { clientAddress } from '../http/client-address.js';

/** Mutations audited elsewhere, with more detail than this generic entry. */
const selfAudited = new Set(['/login', '/logout', '/setup'].map((route) => apiPrefix + route));

export function auditTrail(audit: AuditLog): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
    const actor = c.get('auth')?.user.username ?? c.get('caller')?.actor;
    if (!actor || selfAudited.has(c.req.path)) return;
    const status = c.res.status;
    // The route the request was aimed at, even when a middleware (CSRF) refused it first.
    const target = matchedRoutes(c).findLast((route) => route.method !== 'ALL')?.path ?? c.req.path;
    const route = target.startsWith(apiPrefix) ? target.slice(apiPrefix.length) : target;
    await audit.append({
      actor,
      action: `${method} ${route}`,
      target: c.req.path.slice(0, 256),
      outcome: status < 400 ? 'success' : status === 401 || status === 403 ? 'denied' : 'failure',
      requestId: c.var.requestId,
      client: clientAddress(c),
      detail: { status },
    });
  };
}
