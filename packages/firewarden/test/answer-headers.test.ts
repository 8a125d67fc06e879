/**
 * @module Tests: every answer carries the request id and the security headers, whichever way it
 * was built (a plain envelope answer, one with a handler's Set-Cookie, an error with its own
 * headers, an unknown path), through the running bin.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { type RunningServer, startServer } from './support/running-bin.js';

let installation: Installation;
let server: RunningServer;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.createAdmin();
  server = await startServer(['--config', installation.configFile]);
});

afterAll(async () => {
  await server.stop();
  await installation.remove();
});

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'content-type': 'application/json; charset=utf-8',
};

function expectCommonHeaders(headers: Headers, body: { request_id: string }) {
  for (const [name, value] of Object.entries(securityHeaders)) expect(headers.get(name)).toBe(value);
  expect(headers.get('x-request-id')).toBe(body.request_id);
}

test('envelope answers, with or without headers of their own, carry the request id and security headers', async () => {
  const client = new ApiClient(server.url);
  const login = await client.login('admin', adminPassword);
  expect(login.headers.get('set-cookie')).toMatch(/^firewarden_session=/);
  expectCommonHeaders(login.headers, login.body);

  const me = await client.get('/api/v1/auth/me');
  expect(me.body.data.authenticated).toBe(true);
  expectCommonHeaders(me.headers, me.body);

  const wrongMethod = await client.request('PATCH', '/api/v1/auth/me');
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
  expectCommonHeaders(wrongMethod.headers, wrongMethod.body);

  const unknown = await client.get('/api/v1/no-such-route');
  expect(unknown.status).toBe(404);
  expectCommonHeaders(unknown.headers, unknown.body);

  const logout = await client.post('/api/v1/auth/logout');
  expect(logout.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  expectCommonHeaders(logout.headers, logout.body);
});
