/**
 * @module Tests: MCP through the bin: the manifest, tool invocation over REST (checked exactly
 * like the routes the tools stand for: same permission refusals, same conflicts, audited as the
 * caller) and the real MCP endpoint driven by the SDK's own client over Streamable HTTP with a
 * platform token.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearerRequest } from './support/bearer.js';
import {
  type ApiAnswer,
  type Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { createRepo } from './support/git-repo.js';
import { removeScratchDirs } from './support/scratch.js';

const toolNames = [
  'project.list',
  'task.create',
  'task.move',
  'terminal.create',
  'terminal.input',
  'attempt.start',
  'attempt.follow_up',
  'task.diff',
  'task.land',
  'git.status',
  'attention.list',
];

let daemon: RunningDaemon;
let owner: Client;
let viewer: Client;
let projectId: number;

const invoke = (client: Client, tool: string, args: unknown) =>
  client.post(`/mcp/tools/${tool}/invoke`, { args });

const bearerPost = (secret: string, route: string, json: unknown) =>
  bearerRequest(daemon, secret, 'POST', route, json);

async function connectMcp(secret: string | undefined): Promise<McpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/v1/mcp/stream`), {
    requestInit: { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` } },
  });
  const client = new McpClient({ name: 'workspaced-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  projectId = (await owner.post('/projects', { name: 'mcp', path: await createRepo() })).body.id;
  const created = await userClient(daemon, owner, 'watcher', 'viewer');
  viewer = created.client;
  await owner.post(`/projects/${projectId}/members`, { user_id: created.id, role: 'viewer' });
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await removeScratchDirs();
});

describe('REST', () => {
  test('the manifest is versioned and lists the built-in tools with their argument schemas', async () => {
    const manifest = await owner.get('/mcp');
    expect(manifest.status).toBe(200);
    expect(manifest.body).toMatchObject({
      protocol: 'workspaced.mcp',
      version: 1,
      endpoint: '/api/v1/mcp/stream',
    });
    expect(manifest.body.tools.map((tool: { name: string }) => tool.name)).toEqual(toolNames);
    const move = manifest.body.tools.find((tool: { name: string }) => tool.name === 'task.move');
    expect(move.input_schema).toMatchObject({ type: 'object', required: ['id', 'state', 'version'] });
  });

  test('tools act through their routes: results, conflicts and refusals are the routes’ own', async () => {
    const created = await invoke(owner, 'task.create', { project_id: projectId, title: 'from a tool' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      tool: 'task.create',
      status: 201,
      result: { title: 'from a tool', version: 1 },
    });
    const taskId = created.body.result.id;
    const moved = await invoke(owner, 'task.move', { id: taskId, state: 'running', version: 1 });
    expect(moved.body.result).toMatchObject({ state: 'running', version: 2 });
    const stale = await invoke(owner, 'task.move', { id: taskId, state: 'done', version: 1 });
    expect(stale.status).toBe(409);
    expect((await owner.post(`/tasks/${taskId}/move`, { state: 'done', version: 1 })).body.error.code).toBe(
      stale.body.error.code,
    );

    const refused = await invoke(viewer, 'task.create', { project_id: projectId, title: 'nope' });
    const direct = await viewer.post(`/projects/${projectId}/tasks`, { title: 'nope' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(direct.body);
    expect((await invoke(viewer, 'terminal.create', { project_id: projectId })).status).toBe(403);
    expect((await invoke(viewer, 'git.status', { project_id: projectId })).status).toBe(200);
    expect((await invoke(viewer, 'project.list', {})).body.result.projects).toHaveLength(1);
    expect((await invoke(owner, 'git.status', { project_id: 999 })).status).toBe(404);

    const audit = await owner.get('/audit');
    const inner = audit.body.entries.find(
      (entry: { action: string; actor: string }) =>
        entry.action === 'POST /projects/:id/tasks' && entry.actor === 'watcher via mcp',
    );
    expect(inner).toMatchObject({ outcome: 'denied' });
  });

  test('terminal tools start a shell and type into it; attention is listed', async () => {
    const terminal = await invoke(owner, 'terminal.create', { project_id: projectId, shell: '/bin/sh' });
    expect(terminal.status).toBe(200);
    const typed = await invoke(owner, 'terminal.input', { id: terminal.body.result.id, data: 'echo hi\r' });
    expect(typed.status).toBe(200);
    expect((await invoke(owner, 'attention.list', {})).body.result).toEqual({ items: [] });
    await owner.post(`/terminals/${terminal.body.result.id}/terminate`);
  });

  test('unknown tools, bad arguments and tokens without the mcp scope are refused', async () => {
    expect((await invoke(owner, 'shell.exec', {})).body.error.code).toBe('TOOL_NOT_FOUND');
    const bad = await invoke(owner, 'task.move', { id: 'one' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const reader = (await owner.post('/tokens', { name: 'reader', scopes: ['read'] })).body.secret;
    const denied = await bearerPost(reader, '/mcp/tools/project.list/invoke', { args: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('TOKEN_SCOPE');
    // An mcp-only token reaches the tools, not the routes behind them.
    const agent = (await owner.post('/tokens', { name: 'agent', scopes: ['mcp'] })).body.secret;
    expect(
      (
        await bearerPost(agent, '/mcp/tools/task.create/invoke', {
          args: { project_id: projectId, title: 't' },
        })
      ).status,
    ).toBe(200);
    expect((await bearerPost(agent, `/projects/${projectId}/tasks`, { title: 't' })).body.error.code).toBe(
      'TOKEN_SCOPE',
    );
  });
});

describe('MCP endpoint (Streamable HTTP, SDK client)', () => {
  test('lists the same tools and calls them as the token’s user', async () => {
    const secret = (await owner.post('/tokens', { name: 'mcp client', scopes: ['mcp'] })).body.secret;
    const client = await connectMcp(secret);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(toolNames);
      const result = await client.callTool({
        name: 'task.create',
        arguments: { project_id: projectId, title: 'over mcp' },
      });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ title: 'over mcp', project_id: projectId });
      const tasks = await owner.get(`/projects/${projectId}/tasks`);
      expect(tasks.body.tasks.map((task: { title: string }) => task.title)).toContain('over mcp');
    } finally {
      await client.close();
    }
  });

  test('a viewer’s token gets the route’s refusal as a tool error; no token, no session', async () => {
    const secret = (await viewer.post('/tokens', { name: 'viewer mcp', scopes: ['mcp'] })).body.secret;
    const client = await connectMcp(secret);
    try {
      const result = await client.callTool({
        name: 'task.create',
        arguments: { project_id: projectId, title: 'x' },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('PERMISSION_DENIED');
    } finally {
      await client.close();
    }
    await expect(connectMcp(undefined)).rejects.toThrow();
    const plain = await fetch(`${daemon.url}/api/v1/mcp/stream`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: owner.cookie!,
        'x-workspaced-csrf': owner.csrf!,
      },
      body: '{}',
    });
    expect(plain.status).toBe(401);
    expect(((await plain.json()) as ApiAnswer['body']).error.code).toBe('TOKEN_REQUIRED');
  });
});
