/**
 * @module Tests: a preview in real Chromium, the way a user opens one: signed in on the daemon,
 * navigating to `/api/v1/preview/{port}/...`, landing on `p<port>.localhost` (Chromium resolves it
 * to loopback by itself) with the pass cookie kept across the redirect chain, the app's page
 * loading its script, its fetch and its hot-reload WebSocket through the proxy, and that page
 * failing to use the daemon's API with the user's session.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';

const chromiumPath = '/usr/bin/chromium';
const runs = existsSync(chromiumPath) || Boolean(process.env.CI);
if (!runs) console.warn(`skipping preview-chromium: no Chromium at ${chromiumPath}`);

let daemon: RunningDaemon;
let owner: Client;
let app: http.Server;
let appPort: number;
let browser: Browser;
/** The `Cookie` header of every request the app received. */
const cookiesSeen: (string | undefined)[] = [];

/** The page tries the daemon's API with the user's session, then uses its own fetch and socket. */
const appPage = (daemonUrl: string) => `<!doctype html><title>app</title><script>
(async () => {
  const results = {};
  try {
    const me = await fetch('${daemonUrl}/api/v1/me', { credentials: 'include' });
    results.apiRead = 'read ' + me.status;
  } catch (error) { results.apiRead = 'blocked'; }
  try {
    const change = await fetch('${daemonUrl}/api/v1/projects', { method: 'POST', credentials: 'include', mode: 'no-cors',
      headers: { 'content-type': 'text/plain' }, body: '{"name":"x","path":"/tmp"}' });
    results.apiChange = 'sent ' + change.type;
  } catch (error) { results.apiChange = 'blocked'; }
  results.data = await (await fetch('/data.json')).json();
  results.socket = await new Promise((resolve) => {
    const ws = new WebSocket('ws://' + location.host + '/hmr');
    ws.onopen = () => ws.send('reload?');
    ws.onmessage = (event) => resolve(event.data);
    ws.onerror = () => resolve('socket failed');
  });
  results.cookieVisible = document.cookie;
  document.body.dataset.results = JSON.stringify(results);
})();
</script>`;

beforeAll(async () => {
  if (!runs) return;
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  app = http.createServer((request, response) => {
    cookiesSeen.push(request.headers.cookie);
    if (request.url === '/data.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ from: 'app', url: request.url }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(appPage(daemon.url));
  });
  new WebSocketServer({ server: app }).on('connection', (ws) =>
    ws.on('message', (data) => ws.send(`echo ${data}`)),
  );
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appPort = (app.address() as AddressInfo).port;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  app?.closeAllConnections();
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)));
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
});

test.runIf(runs)(
  'a signed-in user opens a preview in Chromium; the previewed page cannot use the daemon session',
  async () => {
    const context = await browser.newContext();
    const [name, value] = owner.cookie!.split('=') as [string, string];
    await context.addCookies([
      { name, value, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Strict' },
    ]);
    const page = await context.newPage();
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(daemon.url)) apiCalls.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(`${daemon.url}/api/v1/preview/${appPort}/start?from=test`);
    expect(new URL(page.url()).host).toMatch(new RegExp(`^p${appPort}\\.localhost:\\d+$`));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/start?from=test');
    await page.waitForSelector('body[data-results]', { state: 'attached', timeout: 20_000 });
    const results = JSON.parse((await page.getAttribute('body', 'data-results'))!);
    expect(results.data).toEqual({ from: 'app', url: '/data.json' });
    expect(results.socket).toBe('echo reload?');
    // The pass is HttpOnly; the daemon's cookie belongs to another host.
    expect(results.cookieVisible).toBe('');
    // No CORS: the read fails in the page; the change leaves opaquely and the daemon refuses it.
    expect(results.apiRead).toBe('blocked');
    expect(['blocked', 'sent opaque']).toContain(results.apiChange);
    expect(apiCalls).toContain(`POST ${daemon.url}/api/v1/projects`);
    expect((await owner.get('/projects')).body.projects).toEqual([]);
    // The app never saw the daemon's session cookie nor the pass.
    expect(cookiesSeen.length).toBeGreaterThanOrEqual(2);
    for (const cookie of cookiesSeen) expect(cookie ?? '').not.toMatch(/workspaced_/);
    await context.close();
  },
  60_000,
);
