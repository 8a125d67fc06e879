/**
 * @module Tests: previews through the running bin, with a real app on loopback behind them: the
 * daemon's redirect and ticket, the separate preview origin, every method with bodies and query
 * strings, a streamed answer that arrives before the app finishes, the daemon's cookies and CSRF
 * header never forwarded, WebSocket echo, and every refusal (own ports, bad ports, a closed port,
 * foreign Host names, the API unreachable from the preview origin).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  type Client,
  cliPath,
  type RunningDaemon,
  rawGet,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import {
  askPreview,
  handshakeStatus,
  openPreview,
  type PreviewTab,
  rawRequest,
} from './support/preview-client.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

interface ApiBody {
  error: { code: string; permission?: string };
}

interface PreviewedApp {
  port: number;
  /** Lets the pending `/stream` answer finish. */
  releaseStream: () => void;
  /** What `/flood` has handed to its socket, and whether it is waiting for 'drain'. */
  flood: { sent: number; blocked: boolean; done: boolean };
  close: () => Promise<void>;
}

/** The app being previewed: echoes what it received, streams, uploads, and a WebSocket echo. */
async function startApp(host = '127.0.0.1'): Promise<PreviewedApp> {
  let releaseStream = () => {};
  const flood = { sent: 0, blocked: false, done: false };
  const server = http.createServer(async (request, response) => {
    if (request.url === '/flood') {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': floodBytes });
      const chunk = Buffer.alloc(64 * 1024, 'f');
      while (flood.sent < floodBytes) {
        flood.sent += chunk.length;
        if (!response.write(chunk)) {
          flood.blocked = true;
          await new Promise((resolve) => response.once('drain', resolve));
          flood.blocked = false;
        }
      }
      flood.done = true;
      response.end();
      return;
    }
    if (request.url === '/stream') {
      const released = new Promise<void>((resolve) => {
        releaseStream = resolve;
      });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first chunk\n');
      await released;
      response.end('second chunk\n');
      return;
    }
    const hash = createHash('sha256');
    let length = 0;
    for await (const chunk of request) {
      hash.update(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    const body = JSON.stringify({
      method: request.method,
      url: request.url,
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      length,
      sha256: hash.digest('hex'),
    });
    response.writeHead(201, 'Made', [
      'Content-Type',
      'application/json',
      'Content-Length',
      String(Buffer.byteLength(body)),
      'X-App',
      'yes',
      'Set-Cookie',
      'app_state=1; Domain=localhost; Path=/; HttpOnly',
      'Set-Cookie',
      'workspaced_preview=forged; Path=/',
      'Keep-Alive',
      'timeout=5',
    ]);
    response.end(body);
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (ws, request) => {
    ws.send(`hello ${request.url}`);
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    releaseStream: () => releaseStream(),
    flood,
    close: () =>
      new Promise((resolve) => {
        for (const client of sockets.clients) client.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What `/flood` answers: far more than the sockets and stream buffers between app and client hold. */
const floodBytes = 128 * 1024 * 1024;

/** Writes raw bytes (what no HTTP client would send) to a port and returns the whole answer. */
async function rawExchange(port: number, text: string): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  // Not end(): a half-closed client has its pending request aborted by Node; `Connection: close` ends it.
  socket.write(text);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  return answer;
}

/** A port where nothing listens: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let daemon: RunningDaemon;
let owner: Client;
let app: PreviewedApp;
let tab: PreviewTab;
let previewPort: number;
let projectId: number;

/** A developer who may start terminals in one project: the right a preview takes. */
async function projectDeveloper(name: string) {
  const created = await userClient(daemon, owner, name, 'developer');
  const member = await owner.post(`/projects/${projectId}/members`, {
    user_id: created.id,
    role: 'developer',
  });
  expect(member.status).toBe(200);
  return created;
}

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  projectId = (await owner.post('/projects', { name: 'previewed', path: await scratchDir('preview') })).body
    .id;
  app = await startApp();
  const opened = await openPreview(owner, app.port, '/landing?x=1');
  tab = opened.tab;
  previewPort = Number(new URL(tab.origin).port);
  expect(opened.next).toBe('/landing?x=1');
});

afterAll(async () => {
  await app?.close();
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await removeScratchDirs();
});

describe('opening a preview', () => {
  test('the daemon redirects to the preview origin p<port>.localhost with a ticket, never proxying itself', async () => {
    const answer = await askPreview(owner, app.port, '/a%20b/c?q=1&r=%2F');
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(location.origin).toBe(`http://p${app.port}.localhost:${previewPort}`);
    expect(previewPort).not.toBe(daemon.port);
    expect(location.pathname).toBe('/__workspaced/preview');
    expect(location.searchParams.get('next')).toBe('/a%20b/c?q=1&r=%2F');
    expect(location.searchParams.get('ticket')).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  test('the ticket exchange sets a host-only HttpOnly pass cookie and sends the browser to the path', async () => {
    const answer = await askPreview(owner, app.port, '/deep/page?y=2');
    const exchange = await rawRequest(answer.headers.get('location')!);
    expect(exchange.status).toBe(303);
    expect(exchange.headers.location).toBe('/deep/page?y=2');
    const cookie = exchange.headers['set-cookie']![0]!;
    expect(cookie).toMatch(
      /^workspaced_preview=[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
    expect(cookie).not.toMatch(/domain/i);
  });

  test('a ticket is single-use and bound to its port', async () => {
    const location = new URL((await askPreview(owner, app.port)).headers.get('location')!);
    const otherPort = location.toString().replace(`p${app.port}.`, `p${app.port + 1}.`);
    const onOtherPort = await rawRequest(otherPort);
    expect(onOtherPort.status).toBe(401);
    expect(JSON.parse(onOtherPort.body).error.code).toBe('PREVIEW_TICKET_INVALID');
    expect((await rawRequest(location.toString())).status).toBe(303);
    const again = await rawRequest(location.toString());
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body).error.code).toBe('PREVIEW_TICKET_INVALID');
  });

  test('the ticket exchange only sends the browser to a path of the same origin', async () => {
    for (const next of ['//evil.example/', '/\\evil.example/', 'https://evil.example/']) {
      const location = new URL((await askPreview(owner, app.port)).headers.get('location')!);
      location.searchParams.set('next', next);
      const answer = await rawRequest(location.toString());
      expect(answer.status, next).toBe(401);
      expect(answer.headers.location).toBeUndefined();
    }
  });

  test('a ticket whose session has ended since is refused', async () => {
    const { client } = await projectDeveloper('leaver');
    const location = (await askPreview(client, app.port)).headers.get('location')!;
    expect((await client.post('/logout')).status).toBe(204);
    const answer = await rawRequest(location);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('PREVIEW_AUTH_REQUIRED');
  });

  test('a ticket whose user has since lost terminal.create is refused', async () => {
    const demoted = await projectDeveloper('demoted');
    const location = (await askPreview(demoted.client, app.port)).headers.get('location')!;
    expect((await owner.patch(`/users/${demoted.id}`, { role: 'viewer' })).status).toBe(200);
    const answer = await rawRequest(location);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('PREVIEW_AUTH_REQUIRED');
  });

  test('ports must be 1-65535 written plainly, and never the daemon own ports', async () => {
    for (const port of ['abc', '0', '65536', '080', '-1', '1e3', '3000.0']) {
      const answer = await askPreview(owner, port);
      expect(answer.status, port).toBe(400);
      expect(((await answer.json()) as ApiBody).error.code).toBe('INVALID_PORT');
    }
    for (const port of [daemon.port, previewPort]) {
      const answer = await askPreview(owner, port);
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as ApiBody).error.code).toBe('PREVIEW_PORT_REFUSED');
      const direct = await tab.request('/', { headers: { host: `p${port}.localhost:${previewPort}` } });
      expect(direct.status).toBe(403);
      expect(JSON.parse(direct.body).error.code).toBe('PREVIEW_PORT_REFUSED');
    }
  });

  test('a preview port already in use stops the daemon with a clear message', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const run = promisify(execFile)(process.execPath, [
        cliPath,
        'serve',
        '--port',
        '0',
        '--preview-port',
        String(port),
        '--data-dir',
        `${daemon.dataDir}-taken`,
      ]);
      const failure = await run.then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('');
      expect(failure?.stderr).toContain(`workspaced: preview port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('when the default preview port (--port + 1) is taken, previews use a free port', async () => {
    const taken = http.createServer();
    let daemonPort = 0;
    // A port whose next one is in use while it is free itself.
    for (let attempt = 0; attempt < 20 && daemonPort === 0; attempt++) {
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const candidate = (taken.address() as AddressInfo).port - 1;
      const probe = http.createServer();
      const free = await new Promise<boolean>((resolve) => {
        probe.once('error', () => resolve(false));
        probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(true)));
      });
      if (free) daemonPort = candidate;
      else await new Promise((resolve) => taken.close(resolve));
    }
    const second = await startDaemon({ args: ['--port', String(daemonPort)] });
    try {
      expect(second.port).toBe(daemonPort);
      const secondOwner = await setupOwner(second);
      const location = new URL((await askPreview(secondOwner, app.port)).headers.get('location')!);
      expect(Number(location.port)).not.toBe(daemonPort + 1);
      const { tab: secondTab } = await openPreview(secondOwner, app.port);
      expect((await secondTab.request('/moved')).status).toBe(201);
    } finally {
      await second.stop();
      await removeDataDir(second);
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('previews need terminal.create: a viewer is refused, a developer allowed, nobody signed out', async () => {
    const viewer = await userClient(daemon, owner, 'watcher', 'viewer');
    const refused = await askPreview(viewer.client, app.port);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ApiBody).error).toMatchObject({
      code: 'PERMISSION_DENIED',
      permission: 'terminal.create',
    });
    const developer = await projectDeveloper('builder');
    const { tab: developerTab } = await openPreview(developer.client, app.port);
    expect((await developerTab.request('/ok')).status).toBe(201);
    const anonymous = await fetch(`${daemon.url}/api/v1/preview/${app.port}/`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });

  test('the global role is not enough: terminal.create must hold in some project', async () => {
    const outsider = await userClient(daemon, owner, 'outsider', 'developer');
    const refusedOutside = await askPreview(outsider.client, app.port);
    expect(refusedOutside.status).toBe(403);
    expect(((await refusedOutside.json()) as ApiBody).error).toMatchObject({
      code: 'PERMISSION_DENIED',
      permission: 'terminal.create',
    });
    // A membership whose role cannot start terminals grants no preview either.
    await owner.post(`/projects/${projectId}/members`, { user_id: outsider.id, role: 'viewer' });
    expect((await askPreview(outsider.client, app.port)).status).toBe(403);
    await owner.post(`/projects/${projectId}/members`, { user_id: outsider.id, role: 'developer' });
    const location = (await askPreview(outsider.client, app.port)).headers.get('location')!;
    // Removed from the project before the ticket is used: the preview origin refuses it too.
    expect((await owner.delete(`/projects/${projectId}/members/${outsider.id}`)).status).toBe(204);
    const answer = await rawRequest(location);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('PREVIEW_AUTH_REQUIRED');
  });
});

describe('proxying', () => {
  test('GET with a query string reaches the app with its headers; the daemon cookie and CSRF header do not', async () => {
    const answer = await tab.request('/search?q=a%20b&lang=en', {
      headers: {
        cookie: `${tab.cookie}; ${owner.cookie}; app_theme=dark`,
        'x-workspaced-csrf': owner.csrf!,
        'x-custom': 'kept',
        authorization: 'Bearer app-token',
        connection: 'x-hop',
        'x-hop': 'dropped',
      },
    });
    expect(answer.status).toBe(201);
    const seen = JSON.parse(answer.body);
    expect(seen).toMatchObject({ method: 'GET', url: '/search?q=a%20b&lang=en' });
    expect(seen.headers.cookie).toBe('app_theme=dark');
    expect(seen.headers['x-workspaced-csrf']).toBeUndefined();
    expect(seen.headers['x-hop']).toBeUndefined();
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers.authorization).toBe('Bearer app-token');
    expect(seen.headers.host).toBe(`p${app.port}.localhost:${previewPort}`);
    expect(seen.headers['x-forwarded-host']).toBe(`p${app.port}.localhost:${previewPort}`);
  });

  test("the app's status and headers come back; cookies lose Domain and may not shadow the daemon's", async () => {
    const answer = await tab.request('/headers');
    expect(answer.status).toBe(201);
    expect(answer.headers['x-app']).toBe('yes');
    expect(answer.headers['keep-alive']).toBeUndefined();
    expect(answer.headers['set-cookie']).toEqual(['app_state=1; Path=/; HttpOnly']);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('POST, PUT, PATCH and DELETE stream bodies larger than any API body limit, byte for byte', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 7, 'preview body ');
    const sha256 = createHash('sha256').update(body).digest('hex');
    const framings: Record<string, string>[] = [
      { 'content-length': String(body.length) },
      { 'transfer-encoding': 'chunked' },
    ];
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const framing of framings) {
        const answer = await tab.request('/upload?part=1', {
          method,
          body,
          headers: { 'content-type': 'application/octet-stream', ...framing },
        });
        expect(answer.status, `${method} ${Object.keys(framing)[0]}`).toBe(201);
        expect(JSON.parse(answer.body)).toMatchObject({
          method,
          url: '/upload?part=1',
          length: body.length,
          sha256,
        });
      }
  });

  test('a streamed answer arrives chunk by chunk, before the app has finished it', async () => {
    const response = await tab.open('/stream');
    expect(response.statusCode).toBe(200);
    const chunks = response[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(String(first.value)).toBe('first chunk\n');
    // Only now may the app finish: a proxy that buffered would never have delivered the first chunk.
    app.releaseStream();
    let rest = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) rest += String(next.value);
    expect(rest).toBe('second chunk\n');
  });

  test('a client that stops reading stops the app too (backpressure): bounded, then everything arrives', async () => {
    const response = await tab.open('/flood');
    // The client reads nothing. Wait until the app is stuck on 'drain' with the same count twice.
    let previous = -1;
    for (let i = 0; i < 300 && !app.flood.done && !(app.flood.blocked && app.flood.sent === previous); i++) {
      previous = app.flood.blocked ? app.flood.sent : -1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(app.flood.done).toBe(false);
    expect(app.flood.blocked).toBe(true);
    // Socket buffers on both sides and a few stream buffers, not the 128 MiB the app wanted to send.
    expect(app.flood.sent).toBeLessThan(32 * 1024 * 1024);
    let received = 0;
    for await (const chunk of response) received += (chunk as Buffer).length;
    expect(received).toBe(floodBytes);
  });

  test('a WebSocket echoes through the preview (hot reload)', async () => {
    const ws = tab.socket('/hmr?token=1');
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        received.push(String(data));
        if (received.length === 1) ws.send('ping through the proxy');
        if (received.length === 2) resolve();
      });
      ws.on('error', reject);
    });
    expect(received).toEqual(['hello /hmr?token=1', 'ping through the proxy']);
    ws.close();
  });

  test('an app listening only on [::1] is reached too', async () => {
    const v6 = await startApp('::1');
    try {
      const { tab: v6Tab } = await openPreview(owner, v6.port);
      const answer = await v6Tab.request('/v6');
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body).url).toBe('/v6');
    } finally {
      await v6.close();
    }
  });

  test('a closed port is a 502: JSON for programs, a page for browsers', async () => {
    const port = await closedPort();
    const { tab: closedTab } = await openPreview(owner, port);
    const json = await closedTab.request('/');
    expect(json.status).toBe(502);
    expect(JSON.parse(json.body).error.code).toBe('PREVIEW_UPSTREAM_UNAVAILABLE');
    const page = await closedTab.request('/', { headers: { accept: 'text/html,*/*' } });
    expect(page.status).toBe(502);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`nothing answers on port ${port}`);
    const upload = await closedTab.request('/', { method: 'POST', body: 'x'.repeat(100_000) });
    expect(upload.status).toBe(502);
    expect(await handshakeStatus(closedTab.socket('/hmr'))).toBe(502);
  });
});

describe('the preview origin is not the daemon', () => {
  test('a request without a pass is refused, even with the daemon session cookie', async () => {
    const answer = await rawRequest(`${tab.origin}/api/v1/me`, { headers: { cookie: owner.cookie! } });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('PREVIEW_AUTH_REQUIRED');
  });

  test('/api/v1/... on the preview origin is the app path, never the daemon API', async () => {
    const answer = await tab.request('/api/v1/me', { headers: { cookie: `${tab.cookie}; ${owner.cookie}` } });
    expect(answer.status).toBe(201);
    const seen = JSON.parse(answer.body);
    expect(seen.url).toBe('/api/v1/me');
    expect(seen.headers.cookie).toBeUndefined();
  });

  test('a pass whose claims were edited is refused (signature)', async () => {
    const [name, value] = tab.cookie.split('=') as [string, string];
    const [payload, mac] = value.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, expiresAt: claims.expiresAt + 1 })).toString(
      'base64url',
    );
    for (const cookie of [
      `${name}=${forged}.${mac}`,
      `${name}=${payload}.${mac.slice(0, -2)}`,
      `${name}=${payload}`,
    ]) {
      const answer = await rawRequest(`${tab.origin}/`, { headers: { cookie } });
      expect(answer.status, cookie).toBe(401);
    }
  });

  test("a pass for one port opens no other port's preview", async () => {
    const other = await startApp();
    try {
      const answer = await tab.request('/', { headers: { host: `p${other.port}.localhost:${previewPort}` } });
      expect(answer.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  test('the daemon API refuses the preview origin: no CORS for reads, 403 for changes and sockets', async () => {
    const origin = tab.origin;
    const read = await fetch(`${daemon.url}/api/v1/me`, { headers: { cookie: owner.cookie!, origin } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const change = await fetch(`${daemon.url}/api/v1/projects`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie!,
        origin,
        'x-workspaced-csrf': owner.csrf!,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'x', path: '/tmp' }),
    });
    expect(change.status).toBe(403);
    expect(((await change.json()) as ApiBody).error.code).toBe('ORIGIN_NOT_ALLOWED');
    const socket = await rawRequest(`${daemon.url}/api/v1/ws`, {
      headers: {
        cookie: owner.cookie!,
        origin,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    expect(socket.status).toBe(403);
  });

  test('Host names other than p<port>.localhost:<preview port> are refused (DNS rebinding)', async () => {
    for (const host of [
      `127.0.0.1:${previewPort}`,
      `localhost:${previewPort}`,
      `evil.example:${previewPort}`,
      `p${app.port}.localhost.evil.example:${previewPort}`,
      `p${app.port}.localhost:${daemon.port}`,
      `p${app.port}.localhost:0${previewPort}`,
      `p${app.port}.localhost`,
    ]) {
      const answer = await tab.request('/', { headers: { host } });
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe('HOST_NOT_ALLOWED');
    }
  });

  test('a second Host header never reaches the app, and proxy-style targets are refused', async () => {
    const host = `p${app.port}.localhost:${previewPort}`;
    const doubled = await rawExchange(
      previewPort,
      `GET /two-hosts HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nCookie: ${tab.cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(doubled).toMatch(/^HTTP\/1\.1 201/);
    const seen = JSON.parse(doubled.slice(doubled.indexOf('\r\n\r\n') + 4));
    expect(
      seen.rawHeaders.filter(
        (_: string, index: number) => index % 2 === 0 && /^host$/i.test(seen.rawHeaders[index]),
      ).length,
    ).toBe(1);
    expect(seen.headers.host).toBe(host);
    const absolute = await rawExchange(
      previewPort,
      `GET http://evil.example/ HTTP/1.1\r\nHost: ${host}\r\nCookie: ${tab.cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400/);
    expect(absolute).toContain('INVALID_REQUEST_TARGET');
  });

  test('the daemon API refuses the preview host names', async () => {
    const answer = await rawGet(daemon, '/health', { host: `p${app.port}.localhost:${daemon.port}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.code).toBe('HOST_NOT_ALLOWED');
  });

  test('the daemon API is not served on the preview listener', async () => {
    const answer = await rawRequest(`http://127.0.0.1:${previewPort}/api/v1/health`);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('uptime_secs');
  });

  test('preview WebSockets need the pass and the preview page as Origin', async () => {
    const refusals: { headers: Record<string, string>; status: number }[] = [
      { headers: { origin: 'http://evil.example' }, status: 403 },
      { headers: { cookie: '' }, status: 401 },
    ];
    for (const { headers, status } of refusals) {
      expect(await handshakeStatus(tab.socket('/hmr', headers))).toBe(status);
    }
  });
});
