/**
 * @module Tests: the UIs' transport against a real node:http server: what goes on the wire (the
 * CSRF header on mutations only, JSON bodies) and how answers are read (JSON, empty, not JSON).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSessionClient, NotJsonAnswer } from '../src/session-client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/api/v1/html') {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      } else if (request.url === '/api/v1/gone') {
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":{"code":"AUTH_REQUIRED"}}');
      } else if (request.url === '/api/v1/empty') {
        response.writeHead(204).end();
      } else {
        response.writeHead(409, { 'content-type': 'application/json' }).end('{"error":{"code":"CONFLICT"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('the CSRF token goes on mutations only, once set, with the JSON body', async () => {
  const client = createSessionClient({ csrfHeader: 'x-demo-csrf', origin });
  seen.length = 0;
  await client.send('POST', '/things', { name: 'a' });
  client.setCsrfToken('token-1');
  await client.send('GET', '/things');
  await client.send('PUT', '/things/1', { name: 'b' });
  await client.send('DELETE', '/things/1');

  expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
    'POST /api/v1/things',
    'GET /api/v1/things',
    'PUT /api/v1/things/1',
    'DELETE /api/v1/things/1',
  ]);
  expect(seen.map((request) => request.headers['x-demo-csrf'])).toEqual([
    undefined,
    undefined,
    'token-1',
    'token-1',
  ]);
  expect(seen[2]?.headers['content-type']).toBe('application/json');
  expect(seen[2]?.body).toBe('{"name":"b"}');
  expect(seen[3]?.headers['content-type']).toBeUndefined();
  expect(seen[3]?.body).toBe('');
});

test('answers: JSON with its status, empty as null, anything else a NotJsonAnswer', async () => {
  const client = createSessionClient({ csrfHeader: 'x-demo-csrf', origin, basePath: '/api/v1' });
  expect(await client.send('POST', '/conflict', {})).toEqual({
    status: 409,
    ok: false,
    body: { error: { code: 'CONFLICT' } },
  });
  expect(await client.send('DELETE', '/empty')).toEqual({ status: 204, ok: true, body: null });
  const failure = await client.send('GET', '/html').catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(NotJsonAnswer);
  expect((failure as NotJsonAnswer).status).toBe(502);
  expect((failure as Error).message).toBe('the server answered 502 without JSON');
});

test('a 401 AUTH_REQUIRED answer reports the lost session; other refusals do not', async () => {
  const client = createSessionClient({ csrfHeader: 'x-demo-csrf', origin });
  let signedOut = 0;
  client.whenSignedOut(() => {
    signedOut++;
  });
  await client.send('POST', '/conflict', {});
  expect(signedOut).toBe(0);
  expect(await client.send('GET', '/gone')).toEqual({
    status: 401,
    ok: false,
    body: { error: { code: 'AUTH_REQUIRED' } },
  });
  expect(signedOut).toBe(1);
});
