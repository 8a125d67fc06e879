/**
 * @module The MCP server (`@modelcontextprotocol/sdk`) over Streamable HTTP, stateless: each
 * request gets its own server and transport bound to the authenticated caller, answers in JSON
 * and is closed once answered. The tools are the manifest's (mcp-tools.ts); a route's refusal
 * becomes a tool result with `isError` and the route's JSON error as text.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { mcpTools } from './mcp-tools.js';
import { runRestCall, type ToolCallContext } from './tool-dispatch.js';

interface McpServeOptions {
  version: string;
  context: ToolCallContext;
}

export async function serveMcpRequest(request: Request, options: McpServeOptions): Promise<Response> {
  const server = new McpServer({ name: 'workspaced', version: options.version });
  for (const tool of mcpTools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input },
      async (args) => {
        const outcome = await runRestCall(tool.toCall(args as never), options.context);
        return {
          content: [{ type: 'text', text: JSON.stringify(outcome.body) }],
          ...(outcome.status < 300 && outcome.body !== null && typeof outcome.body === 'object'
            ? { structuredContent: outcome.body as Record<string, unknown> }
            : {}),
          isError: outcome.status >= 300,
        };
      },
    );
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    // Read to the end before closing: the answer must not be cut by the close.
    const body = await response.arrayBuffer();
    return new Response(body.byteLength === 0 ? null : body, {
      status: response.status,
      headers: response.headers,
    });
  } finally {
    await server.close();
  }
}
