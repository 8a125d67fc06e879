/**
 * @module `GET /mcp` (the versioned tool manifest), `POST /mcp/tools/{tool}/invoke` {args} and
 * the MCP endpoint `/mcp/stream` (Streamable HTTP, stateless, JSON answers; token required, see
 * platform-auth.ts). Every tool runs through its REST route as the caller (tool-dispatch.ts).
 *
 * The endpoint takes POST only. The transport (MCP 2025-03-26 and later, the SDK's 2025-11-25
 * included) lets a client open a server-to-client stream with GET and lets the server answer 405
 * when it offers none; a stateless server has no session to send anything on later, so GET (and
 * DELETE, which ends a session it never had) answer 405 with `Allow: POST` at once, and no
 * request is left open to hold up a shutdown.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { ApiError, apiErrorResponse } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readJson, validationError } from '../http/request-input.js';
import { serveMcpRequest } from './mcp-server.js';
import { findTool, mcpTools } from './mcp-tools.js';
import { type AppFetch, runRestCall, type ToolCallContext } from './tool-dispatch.js';

const mcpProtocol = { protocol: 'workspaced.mcp', version: 1 } as const;

const invokeSchema = z.object({ args: z.record(z.string(), z.unknown()).default({}) }).strict();

interface McpRouteOptions {
  fetch: AppFetch;
  version: string;
}

export function registerMcpRoutes(app: Hono<AppEnv>, options: McpRouteOptions): void {
  const callContext = (c: Context<AppEnv>): ToolCallContext => ({
    fetch: options.fetch,
    host: c.req.header('host') ?? new URL(c.req.url).host,
    principal: c.var.principal,
    actor: c.var.caller?.actor ?? c.var.principal.username,
  });

  app.get('/mcp', (c) =>
    c.json({
      ...mcpProtocol,
      endpoint: '/api/v1/mcp/stream',
      tools: mcpTools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: z.toJSONSchema(tool.input),
      })),
    }),
  );

  app.post('/mcp/tools/:tool/invoke', async (c) => {
    const tool = findTool(c.req.param('tool'));
    if (!tool) throw new ApiError('TOOL_NOT_FOUND', 'no such tool; GET /mcp lists them');
    const { args } = await readJson(c, invokeSchema);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw validationError(parsed.error, 'args');
    const outcome = await runRestCall(tool.toCall(parsed.data), callContext(c));
    // A refusal or error of the route is passed on as it is: same status, same error body.
    if (outcome.status >= 300) return c.json(outcome.body as object, outcome.status as 400);
    return c.json({ tool: tool.name, status: outcome.status, result: outcome.body });
  });

  app.all('/mcp/stream', (c) => {
    if (c.req.method !== 'POST')
      return apiErrorResponse(
        new ApiError(
          'METHOD_NOT_ALLOWED',
          'this MCP server is stateless: POST JSON-RPC messages; it offers no GET stream',
          {},
          { allow: 'POST' },
        ),
      );
    return serveMcpRequest(c.req.raw, { version: options.version, context: callContext(c) });
  });
}
