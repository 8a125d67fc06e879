import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  const child = spawn(process.execPath, [fixture], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await expect.poll(() => output, { timeout: 20_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  const url = /listening on (\S+)/.exec(output)![1]!;

  const slow = fetch(`${url}/?delay=300`).then((r) => r.text());
  await new Promise((resolve) => setTimeout(resolve, 50));
  child.kill('SIGTERM');
  expect(await slow).toBe('hello');
  expect(await exited).toBe(0);
  expect(output).toContain('shutdown hook ran');
});
