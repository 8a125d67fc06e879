/**
 * @module Tests: trickleRequest reports how much of the request went out before a server with a
 * headers timeout cut it off, and closes by itself when a server answers instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { trickleRequest } from '../src/index.js';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a server with a headers timeout cuts the trickle off before the request is complete', async () => {
  const server = createServer(
    { headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 100 },
    (_request, response) => response.end('too late'),
  );
  const url = await listen(server);
  const request = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'x'.repeat(200)}\r\n\r\n`;
  const { sent, received } = await trickleRequest(url, request, { everyMs: 20 });
  server.close();
  expect(sent).toBeLessThan(request.length);
  expect(received).toMatch(/^HTTP\/1\.1 408/);
});

test('a server that answers the whole request leaves it to the helper to close', async () => {
  const server = createServer((_request, response) => response.end('answered'));
  const url = await listen(server);
  const request = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const { sent, received } = await trickleRequest(new URL(url), request, {
    everyMs: 5,
    afterLastCharMs: 200,
  });
  server.close();
  expect(sent).toBe(request.length);
  expect(received.startsWith('HTTP/1.1 200 OK')).toBe(true);
  expect(received.endsWith('answered')).toBe(true);
});
