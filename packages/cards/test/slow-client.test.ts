/**
 * @module A client that sends its request headers at one byte a second is cut off (issue 17):
 * the bin's server closes the connection long before the headers are complete (header timeout
 * of `@suite/server-kit`), instead of holding the socket for 67-91 s as Node's defaults did.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningBin, startBin } from './support/server.js';

let server: RunningBin;
beforeAll(async () => {
  server = await startBin({ CARDS_STORE: ':memory:' });
});
afterAll(() => server.stop());

it('closes a connection whose headers trickle in at one byte a second before they are complete', async () => {
  const url = new URL(server.url);
  const request = `GET /badge?label=slow&message=client HTTP/1.1\r\nHost: ${url.host}\r\nX-Padding: ${'x'.repeat(60)}\r\n\r\n`;
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < request.length && !socket.destroyed) socket.write(request[sent++]!);
  }, 1_000);
  await closed;
  clearInterval(timer);
  expect(sent).toBeLessThan(request.length);
  expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
}, 60_000);
