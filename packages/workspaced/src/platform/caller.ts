/**
 * @module Who makes a request that carries no session cookie: a platform token (Bearer), or a
 * tool call the MCP layer dispatches through the app on behalf of an already authenticated
 * caller. The latter is marked with a module-private symbol in the request's `env`, which no
 * HTTP client can set.
 */

import type { Context } from 'hono';
import type { Principal } from '../auth/principal.js';
import type { TokenScope } from './token-scopes.js';

export interface Caller {
  principal: Principal;
  /** The token used; undefined for an internal dispatch (its scope was checked on the way in). */
  token?: { id: string; name: string; scopes: TokenScope[] };
  /** For the audit trail: `alice (token 1a2b...)`, `alice (mcp)`. */
  actor: string;
}

const internalCaller = Symbol('workspaced.internal-caller');

/** The `env` argument of `app.fetch` for a request made on behalf of `caller`. */
export function internalEnv(caller: Caller): Record<symbol, Caller> {
  return { [internalCaller]: caller };
}

export function internalCallerOf(c: Context): Caller | undefined {
  const env = c.env as Record<symbol, Caller | undefined> | undefined;
  return env && typeof env === 'object' ? env[internalCaller] : undefined;
}
