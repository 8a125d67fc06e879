/**
 * @module `GET /mcp` (the versioned tool manifest), `POST /mcp/tools/{tool}/invoke` {args} and
 * the MCP endpoint `/mcp/stream` (Streamable HTTP, stateless, JSON answers; token required).
 * Every tool runs through its REST route as the caller (tool-dispatch.ts).
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readJson, validationError } from '../http/request-input.js';
import { serveMcpRequest } from './mcp-server.js';
import { findTool, mcpTools } from './mcp-tools.js';
import { type AppFetch, runRestCall, type ToolCallContext } from './tool-dispatch.js';

export const mcpProtocol = { protocol: 'workspaced.mcp', version: 1 } as const;

const invokeSchema = z.object({ args: z.record(z.string(), z.unknown()).default({}) }).strict();

export interface McpRouteOptions {
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
    if (!tool) throw new ApiError(404, 'TOOL_NOT_FOUND', 'no such tool; GET /mcp lists them');
    const { args } = await readJson(c, invokeSchema);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw validationError(parsed.error, 'args');
    const outcome = await runRestCall(tool.toCall(parsed.data), callContext(c));
    // A refusal or error of the route is passed on as it is: same status, same error body.
    if (outcome.status >= 300) return c.json(outcome.body as object, outcome.status as 400);
    return c.json({ tool: tool.name, status: outcome.status, result: outcome.body });
  });

  app.all('/mcp/stream', async (c) => {
    if (!c.var.caller?.token)
      throw new ApiError(
        401,
        'TOKEN_REQUIRED',
        'the MCP endpoint takes a platform token with the mcp scope',
        {},
        {
          'www-authenticate': 'Bearer',
        },
      );
    return serveMcpRequest(c.req.raw, { version: options.version, context: callContext(c) });
  });
}
