/**
 * @module Runs an MCP tool by sending its REST call through the daemon's own app, as the caller:
 * the request is marked with the caller in its `env` (platform/caller.ts), which no HTTP client
 * can forge, and meets the same guards, validation, permission checks and audit as any request.
 */

import type { Principal } from '../auth/principal.js';
import { apiPrefix } from '../http/api-prefix.js';
import { type Caller, internalEnv } from '../platform/caller.js';
import type { RestCall } from './mcp-tools.js';

export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

interface ToolOutcome {
  status: number;
  body: unknown;
}

export interface ToolCallContext {
  fetch: AppFetch;
  /** The Host of the request that asked (already allow-listed), so the inner one passes too. */
  host: string;
  principal: Principal;
  /** How the caller authenticated, for the audit trail: `alice (token 1a2b...)`, `alice`. */
  actor: string;
}

export async function runRestCall(call: RestCall, context: ToolCallContext): Promise<ToolOutcome> {
  const caller: Caller = { principal: context.principal, actor: `${context.actor} via mcp` };
  const request = new Request(`http://${context.host}${apiPrefix}${call.path}`, {
    method: call.method,
    headers: {
      host: context.host,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const response = await context.fetch(request, internalEnv(caller));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}
