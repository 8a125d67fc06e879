/**
 * @module Audits every state-changing request (any method but GET/HEAD/OPTIONS) on a known route
 * that its handler did not audit itself: refused ones included (no session, wrong CSRF token,
 * forbidden, invalid body), so the trail shows attempts as well as changes.
 */
import { METHODS } from 'node:http';
import { createMiddleware } from 'hono/factory';
import type { Services } from '../../server/services.js';
import type { AppEnv } from '../app-env.js';

export function outcomeOf(status: number): string {
  if (status < 400) return 'success';
  if (status === 401 || status === 403) return 'denied';
  if (status === 429) return 'rate_limited';
  if (status < 500) return 'rejected';
  return 'error';
}

/** Every method Node's HTTP parser accepts but GET, HEAD and OPTIONS. */
export const auditedMethods = METHODS.filter((method) => !['GET', 'HEAD', 'OPTIONS'].includes(method));

/** Register it for `auditedMethods` only: reads then do not pass through it at all. */
export function auditRequests(services: Services) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    await next();
    if (c.get('audited')) return;
    // Unknown paths change nothing and would let anyone grow the trail: not recorded.
    const route = c.get('route');
    if (!route) return;
    const auth = c.get('auth');
    const code = c.res.status >= 400 ? await errorCodeOf(c.res) : null;
    await services
      .auth()
      .audit.append({
        actor: auth?.user.username ?? null,
        action: `${method} ${route}`,
        target: c.req.path.slice(0, 256),
        outcome: outcomeOf(c.res.status),
        requestId: c.get('requestId'),
        client: c.get('clientAddress'),
        detail: { status: c.res.status, ...(code ? { code } : {}) },
      })
      .catch((error: unknown) => services.logger.error({ err: error }, 'audit append failed'));
  });
}

async function errorCodeOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}
