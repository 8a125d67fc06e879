/**
 * @module Tests: the Host allow-list names only the loopback address the daemon listens on. A
 * daemon on 127.0.0.1 refuses `Host: [::1]:port` and `Host: localhost:port` (another local process
 * may listen on `[::1]` with the same port, and a browser may send `localhost` there), on HTTP
 * routes, as a mutation's Origin and on WebSocket upgrades; a daemon on `::1` answers `[::1]` and
 * refuses `127.0.0.1`; `--allowed-host` still adds a name.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { scratchDir } from './support/scratch.js';

/** A request to `address` with a Host header fetch() would not let us choose. */
function request(
  address: string,
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; code: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: address, port, path, headers, setHost: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
        } catch {}
        resolve({ status: response.statusCode ?? 0, code });
      });
    });
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, code: undefined });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const upgradeHeaders = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

describe('a daemon on 127.0.0.1', () => {
  let daemon: RunningDaemon;
  let owner: Client;

  beforeAll(async () => {
    daemon = await startDaemon({ args: ['--allowed-host', 'workspaced.localhost'] });
    owner = await setupOwner(daemon);
  });
  afterAll(async () => {
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
  });

  test('answers Host 127.0.0.1:port and an --allowed-host name', async () => {
    for (const host of [`127.0.0.1:${daemon.port}`, `workspaced.localhost:${daemon.port}`]) {
      expect((await request('127.0.0.1', daemon.port, '/api/v1/health', { host })).status, host).toBe(200);
    }
  });

  test('refuses Host [::1]:port and localhost:port (names of an address it does not listen on)', async () => {
    for (const host of [`[::1]:${daemon.port}`, `localhost:${daemon.port}`, `127.0.0.2:${daemon.port}`]) {
      for (const path of ['/api/v1/health', '/api/v1/setup', '/']) {
        const answer = await request('127.0.0.1', daemon.port, path, { host });
        expect(answer, `${host} ${path}`).toEqual({ status: 403, code: 'HOST_NOT_ALLOWED' });
      }
    }
  });

  test('refuses those names as the Origin of a mutation and as the Host of a WebSocket upgrade', async () => {
    const folder = await scratchDir('host-binding');
    for (const origin of [`http://localhost:${daemon.port}`, `http://[::1]:${daemon.port}`]) {
      const refused = await owner.post('/projects', { name: 'h', path: folder }, { headers: { origin } });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    const accepted = await owner.post(
      '/projects',
      { name: 'h', path: folder },
      { headers: { origin: `http://127.0.0.1:${daemon.port}` } },
    );
    expect(accepted.status).toBe(201);
    for (const host of [`[::1]:${daemon.port}`, `localhost:${daemon.port}`]) {
      const upgrade = await request('127.0.0.1', daemon.port, '/api/v1/ws', {
        ...upgradeHeaders,
        host,
        cookie: owner.cookie!,
        origin: `http://127.0.0.1:${daemon.port}`,
      });
      expect(upgrade.status, host).toBe(403);
    }
    const opened = await request('127.0.0.1', daemon.port, '/api/v1/ws', {
      ...upgradeHeaders,
      host: `127.0.0.1:${daemon.port}`,
      cookie: owner.cookie!,
      origin: `http://127.0.0.1:${daemon.port}`,
    });
    expect(opened.status).toBe(101);
  });
});

describe('a daemon on ::1', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({ args: ['--host', '::1'] });
  });
  afterAll(async () => {
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
  });

  test('answers Host [::1]:port and refuses 127.0.0.1:port and localhost:port', async () => {
    expect(daemon.url).toBe(`http://[::1]:${daemon.port}`);
    expect(
      (await request('::1', daemon.port, '/api/v1/health', { host: `[::1]:${daemon.port}` })).status,
    ).toBe(200);
    for (const host of [`127.0.0.1:${daemon.port}`, `localhost:${daemon.port}`]) {
      expect(await request('::1', daemon.port, '/api/v1/health', { host }), host).toEqual({
        status: 403,
        code: 'HOST_NOT_ALLOWED',
      });
    }
  });
});
