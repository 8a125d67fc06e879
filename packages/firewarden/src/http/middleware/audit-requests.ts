/**
 * @module Audits every state-changing request (any method but GET/HEAD/OPTIONS) on a known route
 * that its handler did not audit itself. A signed-in user's request gets a chained entry whatever
 * its answer (changes, and attempts refused for the role, the CSRF token or the body: only the
 * holder of the SameSite=Strict cookie can make those). Refusals anyone can cause without a
 * session (no session, or a foreign Origin, refused before the session is read) are counted per
 * kind and minute with one sample (`auth_audit_refusals`), so a flood of them adds a row per
 * minute, not one per request.
 */
import { METHODS } from 'node:http';
import { createMiddleware } from 'hono/factory';
import type { Services } from '../../server/services.js';
import type { AppEnv } from '../app-env.js';

function outcomeOf(status: number): string {
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
    const status = c.res.status;
    const code = status >= 400 ? await errorCodeOf(c.res) : null;
    const action = `${method} ${route}`;
    const outcome = outcomeOf(status);
    const target = c.req.path.slice(0, 256);
    const requestId = c.get('requestId');
    const client = c.get('clientAddress');
    const audit = services.auth().audit;
    const recorded =
      status >= 400 && !auth
        ? audit.countRefusal({
            kind: `${action} ${outcome} ${code ?? status}`,
            sample: { target, client, request_id: requestId, status },
          })
        : audit.append({
            actor: auth?.user.username ?? null,
            action,
            target,
            outcome,
            requestId,
            client,
            detail: { status, ...(code ? { code } : {}) },
          });
    await recorded.catch((error: unknown) => services.logger.error({ err: error }, 'audit append failed'));
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
