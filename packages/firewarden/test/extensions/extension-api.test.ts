/**
 * @module Tests: the extension routes over HTTP against the real server: list and read (any
 * signed-in user), grant and revoke (admin only, CSRF, audited), and widget data served only
 * from declared sources once granted: `http.local` on a loopback fake (JSON, redirects kept on
 * loopback, size cap, timeout, non-JSON) and built-in metrics.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, runCli, startServer } from '../support/running-bin.js';

const exampleFile = fileURLToPath(
  new URL('../../examples/extensions/local-health/extension.yaml', import.meta.url),
);
const viewerPassword = 'viewer password 123';

/** A loopback service the widgets read: what a self-hoster would run next to firewarden. */
function localService(): Promise<Server> {
  const server = createServer((request, response) => {
    const json = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    switch (request.url) {
      case '/status.json':
        return json(200, '{"state":"ok","checks":3}');
      case '/hop':
        response.writeHead(302, { location: '/status.json' });
        return response.end();
      case '/hop-out':
        response.writeHead(302, { location: 'http://192.0.2.10/status.json' });
        return response.end();
      case '/big':
        return json(200, JSON.stringify({ pad: 'x'.repeat(300 * 1024) }));
      case '/garbage':
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html>');
      case '/broken':
        return json(500, '{}');
      case '/silent':
        return; // never answers
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let installation: Installation;
let server: RunningServer;
let service: Server;
let admin: ApiClient;
let viewer: ApiClient;

const widget = (id: string, url: string) =>
  `  - {id: ${id}, title: ${id}, kind: status, size: small, source: http.local, query: {url: "${url}"}, refresh_seconds: 30}\n`;

beforeAll(async () => {
  service = await localService();
  const base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  installation = (await createInstallation('sqlite'))!;
  await installation.writeConfig({ security: { login_rate_limit_per_minute: 200 } });
  await installation.createAdmin();
  const example = (await readFile(exampleFile, 'utf8')).replace('http://127.0.0.1:9100', base);
  const extra = [
    widget('hop', `${base}/hop`),
    widget('hop-out', `${base}/hop-out`),
    widget('big', `${base}/big`),
    widget('garbage', `${base}/garbage`),
    widget('broken', `${base}/broken`),
    widget('silent', `${base}/silent`),
    widget('by-name', `${base.replace('127.0.0.1', 'localhost')}/status.json`),
  ].join('');
  await writeFile(path.join(installation.dir, 'extension.yaml'), example + extra);
  const installed = await runCli([
    'extension',
    'install',
    installation.dir,
    '--config',
    installation.configFile,
  ]);
  expect(installed.code).toBe(0);
  server = await startServer(['--config', installation.configFile]);
  admin = new ApiClient(server.url);
  expect((await admin.login('admin', adminPassword)).status).toBe(200);
  expect(
    (await admin.post('/api/v1/users', { username: 'vera', password: viewerPassword, role: 'viewer' }))
      .status,
  ).toBe(201);
  viewer = new ApiClient(server.url);
  expect((await viewer.login('vera', viewerPassword)).status).toBe(200);
});

afterAll(async () => {
  expect(await server.stop()).toBe(0);
  service.closeAllConnections();
  service.close();
  await installation.remove();
});

const data = (client: ApiClient, widgetId: string) =>
  client.get(`/api/v1/extensions/local-health/widgets/${widgetId}/data`);

describe('reading extensions', () => {
  test('GET /extensions lists the manifest and its (empty) grants for any signed-in user', async () => {
    const answer = await viewer.get('/api/v1/extensions');
    expect(answer.status).toBe(200);
    expect(answer.body.data.extensions).toHaveLength(1);
    expect(answer.body.data.extensions[0]).toMatchObject({
      id: 'local-health',
      name: 'Local health',
      version: '1.0.0',
      author: 'firewarden examples',
      min_app: '0.1.0',
      capabilities: ['dashboard.widget', 'events.read'],
      grants: [],
    });
    expect(answer.body.data.extensions[0].manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.body.data.extensions[0].widgets[0]).toMatchObject({
      id: 'app-status',
      kind: 'status',
      size: 'small',
      source: 'http.local',
      refresh_seconds: 30,
    });
  });

  test('GET /extensions/{id} answers one; an unknown id is 404 EXTENSION_NOT_FOUND', async () => {
    expect((await viewer.get('/api/v1/extensions/local-health')).body.data.id).toBe('local-health');
    const missing = await viewer.get('/api/v1/extensions/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('EXTENSION_NOT_FOUND');
  });

  test('without a session it is 401', async () => {
    expect((await new ApiClient(server.url).get('/api/v1/extensions')).status).toBe(401);
  });
});

describe('grants', () => {
  test('widget data is refused while its capability is not granted (denied by default)', async () => {
    const answer = await data(admin, 'app-status');
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'EXTENSION_CAPABILITY_DENIED' });
    expect(answer.body.error.message).toContain('dashboard.widget');
  });

  test('a viewer may not grant; a request without the CSRF header is refused', async () => {
    const byViewer = await viewer.post('/api/v1/extensions/local-health/grants', {
      capability: 'dashboard.widget',
    });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.code).toBe('AUTH_FORBIDDEN');
    const noCsrf = await admin.post(
      '/api/v1/extensions/local-health/grants',
      { capability: 'dashboard.widget' },
      { withoutCsrf: true },
    );
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('AUTH_CSRF_INVALID');
    expect((await admin.get('/api/v1/extensions/local-health')).body.data.grants).toEqual([]);
  });

  test('never-grantable, undeclared and malformed grants are refused', async () => {
    const forbidden = await admin.post('/api/v1/extensions/local-health/grants', { capability: 'exec' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({
      code: 'EXTENSION_CAPABILITY_DENIED',
      message: 'exec can never be granted',
    });
    const undeclared = await admin.post('/api/v1/extensions/local-health/grants', { capability: 'ui.panel' });
    expect(undeclared.status).toBe(422);
    expect(undeclared.body.error.code).toBe('EXTENSION_CAPABILITY_UNDECLARED');
    const malformed = await admin.post('/api/v1/extensions/local-health/grants', {
      capability: 3,
      extra: true,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('REQUEST_INVALID');
    const unknown = await admin.post('/api/v1/extensions/nope/grants', { capability: 'dashboard.widget' });
    expect(unknown.status).toBe(404);
  });

  test('an admin grants one capability; it is recorded and audited', async () => {
    const answer = await admin.post('/api/v1/extensions/local-health/grants', {
      capability: 'dashboard.widget',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.grants).toMatchObject([{ capability: 'dashboard.widget', granted_by: 'admin' }]);
    const audit = await admin.get('/api/v1/audit?action=extensions.grant&limit=1');
    expect(audit.body.data.entries[0]).toMatchObject({
      actor: 'admin',
      action: 'extensions.grant',
      target: 'local-health',
      outcome: 'success',
      detail: { capability: 'dashboard.widget', changed: true },
    });
  });
});

describe('widget data', () => {
  test('http.local: the loopback JSON document, with the widget kind and refresh', async () => {
    const answer = await data(viewer, 'app-status');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      extension_id: 'local-health',
      widget_id: 'app-status',
      kind: 'status',
      refresh_seconds: 30,
      data: { state: 'ok', checks: 3 },
    });
  });

  test('http.local: localhost is resolved and checked; a redirect on loopback is followed', async () => {
    expect((await data(viewer, 'by-name')).body.data.data).toEqual({ state: 'ok', checks: 3 });
    expect((await data(viewer, 'hop')).body.data.data).toEqual({ state: 'ok', checks: 3 });
  });

  test('http.local: a redirect off loopback is refused', async () => {
    const answer = await data(viewer, 'hop-out');
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('EXTENSION_SOURCE_REFUSED');
    expect(answer.body.error.message).toContain('http://192.0.2.10/status.json');
  });

  test.each([
    ['big', 'larger than 262144 bytes'],
    ['garbage', 'did not answer JSON'],
    ['broken', 'answered HTTP 500'],
    ['silent', 'did not answer in time'],
  ])('http.local: %s is a 502 EXTENSION_SOURCE_FAILED (%s)', async (id, message) => {
    const answer = await data(viewer, id);
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('EXTENSION_SOURCE_FAILED');
    expect(answer.body.error.message).toContain(message);
  });

  test('a built-in metric needs its own capability too (events.read)', async () => {
    const denied = await data(viewer, 'notifications');
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('events.read');
    expect(
      (await admin.post('/api/v1/extensions/local-health/grants', { capability: 'events.read' })).status,
    ).toBe(200);
    const answer = await data(viewer, 'notifications');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ kind: 'metric', data: { value: expect.any(Number) } });
  });

  test('an unknown widget is 404', async () => {
    const answer = await data(viewer, 'nope');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('EXTENSION_NOT_FOUND');
  });

  test('revoking stops the data at once; the revoke is audited', async () => {
    const revoked = await admin.request('DELETE', '/api/v1/extensions/local-health/grants/dashboard.widget');
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.grants.map((grant: { capability: string }) => grant.capability)).toEqual([
      'events.read',
    ]);
    expect((await data(viewer, 'app-status')).status).toBe(403);
    const byViewer = await viewer.request('DELETE', '/api/v1/extensions/local-health/grants/events.read');
    expect(byViewer.status).toBe(403);
    const audit = await admin.get('/api/v1/audit?action=extensions.revoke&limit=1');
    expect(audit.body.data.entries[0]).toMatchObject({
      target: 'local-health',
      detail: { capability: 'dashboard.widget' },
    });
  });
});
