/**
 * @module Tests: the MCP endpoint as a real MCP client meets it, end to end against the bin with
 * the official SDK's `Client` and `StreamableHTTPClientTransport`: initialize, tools/list, a tool
 * call, the server-to-client GET stream the transport opens after initializing (405 with `Allow`:
 * the stateless server sends nothing unsolicited), refusals the SDK sees (no token: 401 with a
 * Bearer challenge; a token without the `mcp` scope: 403), the OAuth discovery paths and unknown
 * API paths answering JSON 404 (never the UI's HTML), and SIGTERM with a client connected.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';

interface SeenResponse {
  method: string;
  status: number;
  allow: string | null;
  contentType: string | null;
  wwwAuthenticate: string | null;
}

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectId } = await startProjectDaemon('mcp-client'));
});

afterAll(() => stopProjectDaemon(daemon));

const streamUrl = () => new URL(`${daemon.url}/api/v1/mcp/stream`);

async function tokenWith(name: string, scopes: string[]): Promise<string> {
  const created = await owner.post('/tokens', { name, scopes });
  expect(created.status).toBe(201);
  return created.body.secret;
}

/** An SDK client whose transport records every answer the daemon gave it. */
function sdkClient(secret: string | undefined, target: RunningDaemon = daemon) {
  const seen: SeenResponse[] = [];
  let getAnswered: (response: SeenResponse) => void = () => {};
  const streamAnswer = new Promise<SeenResponse>((resolve) => {
    getAnswered = resolve;
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${target.url}/api/v1/mcp/stream`), {
    requestInit: { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const answer = {
        method: init?.method ?? 'GET',
        status: response.status,
        allow: response.headers.get('allow'),
        contentType: response.headers.get('content-type'),
        wwwAuthenticate: response.headers.get('www-authenticate'),
      };
      seen.push(answer);
      if (answer.method === 'GET') getAnswered(answer);
      return response;
    },
  });
  const client = new McpClient({ name: 'workspaced-sdk-test', version: '1.0.0' });
  return { client, transport, seen, streamAnswer };
}

describe('the official SDK client end to end', () => {
  test('initializes, lists the tools, calls one, and its GET stream is answered at once', async () => {
    const { client, transport, streamAnswer } = sdkClient(await tokenWith('sdk', ['mcp']));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'workspaced' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('task.create');
      const result = await client.callTool({
        name: 'task.create',
        arguments: { project_id: projectId, title: 'from the sdk' },
      });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ title: 'from the sdk', project_id: projectId });
      // The transport opens the server-to-client stream after `initialized`; the stateless server
      // never sends anything unsolicited, so it answers 405 naming the method it takes.
      expect(await streamAnswer).toMatchObject({ method: 'GET', status: 405, allow: 'POST' });
    } finally {
      await client.close();
    }
  });

  test('a GET, DELETE or PUT on the endpoint is 405 with Allow: POST and a JSON body', async () => {
    const secret = await tokenWith('raw', ['mcp']);
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const answer = await fetch(streamUrl(), {
        method,
        headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream' },
      });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  test('without a token the SDK sees 401 with a Bearer challenge and TOKEN_REQUIRED', async () => {
    const { client, transport, seen } = sdkClient(undefined);
    const refused = await client.connect(transport).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
    expect(seen[0]).toMatchObject({ method: 'POST', status: 401 });
    expect(seen[0]!.wwwAuthenticate).toMatch(/^Bearer realm="workspaced"/);
    const plain = await fetch(streamUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('TOKEN_REQUIRED');
  });

  test('a token without the mcp scope is refused with 403 TOKEN_SCOPE, a wrong one with 401', async () => {
    const reader = sdkClient(await tokenWith('reader', ['read']));
    const scoped = await reader.client.connect(reader.transport).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((scoped as StreamableHTTPError).code).toBe(403);
    const forged = sdkClient('wsd_forged');
    const unknown = await forged.client.connect(forged.transport).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((unknown as StreamableHTTPError).code).toBe(401);
    expect(forged.seen[0]!.wwwAuthenticate).toMatch(/^Bearer realm="workspaced", error="invalid_token"/);
  });
});

describe('paths a client probes', () => {
  test('OAuth discovery and unknown API paths answer a JSON 404, never the UI page', async () => {
    const secret = await tokenWith('probe', ['read']);
    for (const route of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/v1/mcp/stream',
      '/.well-known/openid-configuration',
      '/api/v1/no-such-route',
      '/api/v2/mcp/stream',
    ]) {
      const answer = await fetch(`${daemon.url}${route}`, { headers: { authorization: `Bearer ${secret}` } });
      expect(answer.status, route).toBe(404);
      expect(answer.headers.get('content-type'), route).toMatch(/^application\/json/);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    // The UI still answers its own screens.
    const screen = await fetch(`${daemon.url}/projects`);
    expect(screen.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('shutdown', () => {
  test('SIGTERM with an SDK client connected (its stream asked for) ends the daemon with code 0', async () => {
    const other = await startDaemon();
    try {
      const otherOwner = await setupOwner(other);
      const secret = (await otherOwner.post('/tokens', { name: 'sdk', scopes: ['mcp'] })).body.secret;
      const { client, transport, streamAnswer } = sdkClient(secret, other);
      await client.connect(transport);
      await streamAnswer;
      // test-kit sends SIGKILL (exit code null) if the daemon is still running 10 s after SIGTERM.
      expect(await other.stop()).toBe(0);
      await client.close();
    } finally {
      await other.stop();
      await removeDataDir(other);
    }
  });
});
