/**
 * @module Tests: the attempt tools over MCP with the official SDK client against the bin
 * (stand-in agents on the PATH): `attempt.start`, `attempt.follow_up`, `task.diff` and
 * `task.land` do what their REST routes do, as the token's user: a viewer's token sees the diff
 * but cannot start an agent or land.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { attemptEnded, newTask, startAttemptDaemon } from './support/attempts.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let projectDir: string;

beforeAll(async () => {
  ({ daemon, owner, projectId, projectDir } = await startAttemptDaemon('mcp-attempts'));
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

async function mcpAs(client: Client, name: string) {
  const created = await client.post('/tokens', { name, scopes: ['mcp'] });
  expect(created.status).toBe(201);
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/v1/mcp/stream`), {
    requestInit: { headers: { authorization: `Bearer ${created.body.secret}` } },
  });
  const mcp = new McpClient({ name: 'attempts-test', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected field by field
const call = async (mcp: McpClient, name: string, args: Record<string, unknown>): Promise<any> =>
  mcp.callTool({ name, arguments: args });

test('start, follow up, diff and land over MCP; a viewer token is refused where its role is', async () => {
  const mcp = await mcpAs(owner, 'mcp-owner');
  try {
    const task = await newTask(owner, projectId, 'over mcp');
    const started = await call(mcp, 'attempt.start', {
      task_id: task.id,
      profile: 'claude',
      prompt: 'write mcp.txt from mcp ;; commit mcp file ;; wait',
    });
    expect(started.isError).toBe(false);
    expect(started.structuredContent).toMatchObject({
      task_id: task.id,
      profile: 'claude',
      state: 'running',
    });
    const attemptId = started.structuredContent.id as number;
    const followed = await call(mcp, 'attempt.follow_up', {
      id: attemptId,
      prompt: 'write later.txt later ;; exit 0',
    });
    expect(followed.isError).toBe(false);
    expect(followed.structuredContent).toMatchObject({ delivered: 'typed' });
    expect((await attemptEnded(owner, attemptId)).state).toBe('completed');

    const diff = await call(mcp, 'task.diff', { id: task.id });
    expect(diff.isError).toBe(false);
    expect(diff.structuredContent.files.map((file: { path: string }) => file.path).sort()).toEqual([
      'later.txt',
      'mcp.txt',
    ]);

    const { client: viewer, id } = await userClient(daemon, owner, 'mcp-viewer', 'viewer');
    await owner.post(`/projects/${projectId}/members`, { user_id: id, role: 'viewer' });
    const viewerMcp = await mcpAs(viewer, 'mcp-viewer-token');
    try {
      expect((await call(viewerMcp, 'task.diff', { id: task.id })).isError).toBe(false);
      for (const [name, args] of [
        ['attempt.start', { task_id: task.id, profile: 'claude' }],
        ['task.land', { id: task.id, strategy: 'merge' }],
      ] as const) {
        const refused = await call(viewerMcp, name, args);
        expect(refused.isError).toBe(true);
        expect(JSON.parse(refused.content[0].text).error.code).toBe('PERMISSION_DENIED');
      }
    } finally {
      await viewerMcp.close();
    }

    const landed = await call(mcp, 'task.land', {
      id: task.id,
      strategy: 'squash',
      message: 'Land over MCP',
    });
    expect(landed.isError).toBe(false);
    expect(landed.structuredContent.commit).toBe(git(projectDir, 'rev-parse', 'main').trim());
    expect(await readFile(path.join(projectDir, 'later.txt'), 'utf8')).toBe('later');
    expect(git(projectDir, 'log', '-1', '--format=%s').trim()).toBe('Land over MCP');
  } finally {
    await mcp.close();
  }
}, 120_000);
