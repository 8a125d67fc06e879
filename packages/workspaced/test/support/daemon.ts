/**
 * @module Starts the built `workspaced` bin on a fresh data dir and talks to it over HTTP the way
 * a browser would: a cookie jar of one session and the CSRF header on every mutation.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningBin, startBin } from '@suite/test-kit';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningDaemon extends RunningBin {
  dataDir: string;
}

export interface StartOptions {
  args?: string[];
  dataDir?: string;
  /**
   * Start with `--setup-open` (default), so `setupOwner` needs no token; false starts the daemon
   * as a user does, its setup needing the printed one-time token (test/setup-token.test.ts).
   */
  setupOpen?: boolean;
  /** Added to the bin's environment (which is the test's, with `LOG_LEVEL=warn`). */
  env?: Record<string, string>;
}

export async function startDaemon(options: StartOptions = {}): Promise<RunningDaemon> {
  const dataDir =
    options.dataDir ?? path.join(await mkdtemp(path.join(os.tmpdir(), 'workspaced-test-')), 'ws');
  const running = await startBin(cliPath, {
    args: [
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      ...(options.setupOpen === false ? [] : ['--setup-open']),
      ...(options.args ?? []),
    ],
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
  });
  return { ...running, dataDir };
}

export async function removeDataDir(daemon: RunningDaemon): Promise<void> {
  await rm(path.dirname(daemon.dataDir), { recursive: true, force: true });
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any;
}

export interface RequestOptions {
  json?: unknown;
  headers?: Record<string, string>;
  /** Leave out the CSRF header (to test that it is required). */
  csrf?: boolean;
}

/** One signed-in (or anonymous) browser-like client. */
export class Client {
  cookie: string | undefined;
  csrf: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request(method: string, route: string, options: RequestOptions = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && options.csrf !== false && method !== 'GET') headers['x-workspaced-csrf'] = this.csrf;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}/api/v1${route}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {}
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('workspaced_session=')) {
      const value = setCookie.slice(0, setCookie.indexOf(';'));
      this.cookie = value === 'workspaced_session=' ? undefined : value;
    }
    const answer = { status: response.status, headers: response.headers, body: parsed as ApiAnswer['body'] };
    if (answer.body && typeof answer.body.csrf === 'string') this.csrf = answer.body.csrf;
    return answer;
  }

  get = (route: string, options?: RequestOptions) => this.request('GET', route, options);
  post = (route: string, json?: unknown, options?: RequestOptions) =>
    this.request('POST', route, { ...options, json: json ?? {} });
  patch = (route: string, json: unknown, options?: RequestOptions) =>
    this.request('PATCH', route, { ...options, json });
  delete = (route: string, options?: RequestOptions) => this.request('DELETE', route, options);
}

export const ownerPassword = 'owner password 123';

/** The one-time setup token the daemon wrote to its data dir, if it made one. */
export async function readSetupToken(daemon: RunningDaemon): Promise<string | undefined> {
  const text = await readFile(path.join(daemon.dataDir, 'setup-token'), 'utf8').catch(() => undefined);
  return text?.trim();
}

/** Creates the first owner (with the setup token when the daemon made one) and returns their client. */
export async function setupOwner(daemon: RunningDaemon, username = 'owner'): Promise<Client> {
  const client = new Client(daemon.url);
  const setupToken = await readSetupToken(daemon);
  const answer = await client.post('/setup', {
    username,
    display_name: 'The Owner',
    password: ownerPassword,
    ...(setupToken === undefined ? {} : { setup_token: setupToken }),
  });
  if (answer.status !== 201) throw new Error(`setup failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return client;
}

/** Creates a user through the owner and signs them in. */
export async function userClient(daemon: RunningDaemon, owner: Client, username: string, role: string) {
  const password = `${username} password 123`;
  const created = await owner.post('/users', { username, password, role });
  if (created.status !== 201) throw new Error(`user create failed: ${JSON.stringify(created.body)}`);
  const client = new Client(daemon.url);
  const login = await client.post('/login', { username, password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { client, id: created.body.id as string };
}

/** A GET with headers fetch() refuses to send as given (Host), over node:http. */
export function rawGet(daemon: RunningDaemon, route: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: daemon.port,
        path: `/api/v1${route}`,
        method: 'GET',
        headers,
        setHost: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
