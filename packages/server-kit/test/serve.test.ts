import { get as httpsGet } from 'node:https';
import { fileURLToPath } from 'node:url';
import { selfSignedCertificate, startBin, trickleRequest } from '@suite/test-kit';
import { expect, test } from 'vitest';
import { formatUrl, startNodeServer } from '../src/index.js';

test('formatUrl brackets IPv6 literals', () => {
  expect(formatUrl('127.0.0.1', 80)).toBe('http://127.0.0.1:80');
  expect(formatUrl('::1', 8080)).toBe('http://[::1]:8080');
});

test('startNodeServer announces the contract line, serves, and closes', async () => {
  const lines: string[] = [];
  const running = await startNodeServer({
    host: '127.0.0.1',
    port: 0,
    fetch: () => new Response('ok', { headers: { 'x-test': '1' } }),
    announce: (line) => lines.push(line),
    exitOnSignal: false,
  });
  expect(lines).toEqual([`listening on http://127.0.0.1:${running.port}`]);
  const response = await fetch(running.url);
  expect(await response.text()).toBe('ok');
  expect(response.headers.get('x-test')).toBe('1');
  await running.close();
  await expect(fetch(running.url)).rejects.toThrow();
});

test('a bin built on the kit finishes in-flight requests and exits 0 on SIGTERM', async () => {
  const fixture = fileURLToPath(new URL('./fixtures/hello-server.mjs', import.meta.url));
  const bin = await startBin(fixture);
  const url = bin.url;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const slow = fetch(`${url}/?delay=300`).then((r) => r.text());
  await new Promise((resolve) => setTimeout(resolve, 50));
  const exited = bin.stop();
  expect(await slow).toBe('hello');
  expect(await exited).toBe(0);
  expect(bin.output()).toContain('shutdown hook ran');
});

test('a client that trickles its headers is answered 408 and cut off at the headers timeout', async () => {
  const running = await startNodeServer({
    host: '127.0.0.1',
    port: 0,
    fetch: () => new Response('ok'),
    announce: () => {},
    exitOnSignal: false,
    timeouts: { headersMs: 1_000 },
  });
  // One header byte every 100 ms would take 20 s for this request line and header.
  const trickle = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(150)}`;
  const { sent, received } = await trickleRequest(running.url, trickle, { everyMs: 100 });
  expect(sent).toBeLessThan(trickle.length);
  expect(received).toMatch(/^HTTP\/1\.1 408/);
  await running.close();
});

test('with tls the server speaks HTTPS and announces an https URL', async () => {
  const pem = selfSignedCertificate();
  const lines: string[] = [];
  const running = await startNodeServer({
    host: '127.0.0.1',
    port: 0,
    fetch: () => new Response('secure'),
    announce: (line) => lines.push(line),
    exitOnSignal: false,
    tls: { cert: pem.cert, key: pem.key },
  });
  expect(lines).toEqual([`listening on https://127.0.0.1:${running.port}`]);
  const body = await new Promise<string>((resolve, reject) => {
    httpsGet(`${running.url}/`, { ca: pem.cert }, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });
  expect(body).toBe('secure');
  // Plain HTTP on the TLS port gets no answer a browser would accept as HTTP.
  await expect(fetch(`http://127.0.0.1:${running.port}/`)).rejects.toThrow();
  await running.close();
  pem.remove();
});
