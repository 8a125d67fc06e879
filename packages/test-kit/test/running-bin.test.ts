/**
 * @module Tests: startBin against a fixture bin: the URL of a listening line written in pieces,
 * env/args/cwd reaching the child, output capture, SIGTERM then SIGKILL, and clear errors when
 * the bin dies or stays silent.
 */
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startBin } from '../src/index.js';

const fixture = fileURLToPath(new URL('./fixtures/fixture-server.mjs', import.meta.url));

test('resolves with the whole URL of the listening line and passes env, args and cwd', async () => {
  const bin = await startBin(fixture, {
    args: ['serve'],
    env: { ...process.env, FIXTURE_GREETING: 'hi' },
    cwd: tmpdir(),
  });
  expect(bin.url).toBe(`http://127.0.0.1:${bin.port}`);
  expect(bin.port).toBeGreaterThan(9);
  expect(await (await fetch(bin.url)).text()).toBe(`hi from ${tmpdir()}`);
  expect(await bin.stop()).toBe(0);
  expect(bin.stdout()).toBe(`listening on ${bin.url}\n`);
  expect(bin.stderr()).toBe('{"msg":"starting"}\n{"msg":"shutting down"}\n');
  expect(bin.output()).toContain('{"msg":"starting"}\n');
  expect(bin.output()).toContain(`listening on ${bin.url}\n`);
  expect(await bin.stop()).toBe(0);
});

test('a bin that ignores SIGTERM is killed after the grace', async () => {
  const bin = await startBin(fixture, { args: ['stubborn'], killAfterMs: 200 });
  expect(await bin.stop()).toBeNull();
  expect(bin.child.signalCode).toBe('SIGKILL');
});

test('a bin that exits before listening rejects with its exit code and output', async () => {
  await expect(startBin(fixture, { args: ['crash'] })).rejects.toThrow(
    /exited with 3 before listening; output:\nfatal: the config file is missing/,
  );
});

test('a bin that never prints its line is killed and rejected after the bounded wait', async () => {
  await expect(startBin(fixture, { args: ['silent'], readyTimeoutMs: 500 })).rejects.toThrow(
    /no listening line within 500 ms/,
  );
});
