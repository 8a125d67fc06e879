/**
 * @module A client that sends its request headers at one byte a second is cut off:
 * the bin's server closes the connection long before the headers are complete (header timeout
 * of `@suite/server-kit`), instead of holding the socket for 67-91 s as Node's defaults did.
 */
import { trickleRequest } from '@suite/test-kit';
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
  const { sent, received } = await trickleRequest(url, request, { everyMs: 1_000 });
  expect(sent).toBeLessThan(request.length);
  expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
}, 60_000);
