/**
 * @module Tests: the answer shortcut of the bin (a repeated GET served from its cached answer) is
 * byte-identical to the full answer apart from metadata timing, follows file changes, and is off
 * whenever a request-dependent check (API key, rate limit) is configured.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { HealthBody } from '../src/http/response-schemas.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { eventually, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let open: RunningBin;
let keyed: RunningBin;

beforeAll(async () => {
  server = await createServerFolder({ players: 40, seed: 5, newLayoutShare: 0 });
  const config = (name: string, text: string) => {
    const file = path.join(server.dir, name);
    return writeFile(file, `server-dir: .\n${text}`).then(() => file);
  };
  const [openConfig, keyedConfig] = await Promise.all([
    config('open.yml', 'rate-limit: {enabled: false}\ncompression: {enabled: false}\n'),
    config(
      'keyed.yml',
      'security: {enable-api-key: true, api-key: s3cret-key}\nrate-limit: {enabled: false}\ncompression: {enabled: false}\n',
    ),
  ]);
  [open, keyed] = await Promise.all([
    startBin(['--config', openConfig]),
    startBin(['--config', keyedConfig]),
  ]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), keyed?.stop()]);
  await server.remove();
});

/**
 * Status, headers without the per-response ones, and the body with metadata timing blanked
 * (the length follows the digits of execution_time_ms, so it is checked against the body).
 */
async function answer(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  const stable = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== 'date' && name !== 'content-length'),
  );
  return {
    status: response.status,
    headers: stable,
    body: text.replace(
      /"generated_at":"[^"]*","execution_time_ms":\d+/,
      '"generated_at":"","execution_time_ms":0',
    ),
  };
}

test('a repeated GET answers the same status, headers and bytes as the first', async () => {
  const player = server.valid[3]!;
  for (const route of [
    '/api/leaderboard/playtime?limit=5',
    `/api/player/${player.uuid}?categories=mined`,
    `/api/player/${player.name}/summary`,
    '/api/players?search=a&limit=3&order=desc',
  ]) {
    const first = await answer(`${open.url}${route}`);
    expect(first.status).toBe(200);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    for (let repeat = 0; repeat < 3; repeat++) expect(await answer(`${open.url}${route}`)).toEqual(first);
  }
});

test('a served-again answer follows a rewritten file', async () => {
  const player = server.valid[7]!;
  const route = `${open.url}/api/leaderboard/deaths?limit=1`;
  await answer(route);
  await answer(route);
  await writeFile(
    path.join(server.dir, 'world', 'stats', `${player.uuid}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 77_777 } } }),
  );
  await eventually(async () => (await answer(route)).body.includes(`"uuid":"${player.uuid}"`));
});

test('health served again follows the index: a new statistics file counts at once', async () => {
  const health = async () => (await (await fetch(`${open.url}/api/health`)).json()) as HealthBody;
  const before = await health();
  await health();
  const uuid = '0f0e0d0c-0b0a-4909-8807-060504030201';
  await writeFile(
    path.join(server.dir, 'world', 'stats', `${uuid}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:jump': 3 } } }),
  );
  // Once the player answers, the very next health counts the file (not a second later).
  await eventually(async () => (await fetch(`${open.url}/api/player/${uuid}`)).status === 200);
  const after = await health();
  expect(after.index.files).toBe(before.index.files + 1);
  expect(after.index.players).toBe(before.index.players + 1);
  expect(after.system.timestamp > before.system.timestamp).toBe(true);
});

test('with an API key, an answered target still needs the key every time', async () => {
  const route = `${keyed.url}/api/leaderboard/playtime?limit=5`;
  const authorised = { authorization: 'Bearer s3cret-key' };
  expect((await answer(route, authorised)).status).toBe(200);
  expect((await answer(route, authorised)).status).toBe(200);
  expect((await answer(route)).status).toBe(401);
  expect((await answer(route, { authorization: 'Bearer wrong' })).status).toBe(401);
});

test('health served again has the same headers and is computed afresh each time', async () => {
  const first = await fetch(`${open.url}/api/health`);
  const firstBody = (await first.json()) as HealthBody;
  const headersOf = (response: Response) =>
    Object.fromEntries(
      [...response.headers].filter(([name]) => name !== 'date' && name !== 'content-length'),
    );
  for (let repeat = 0; repeat < 3; repeat++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await fetch(`${open.url}/api/health`);
    const body = (await again.json()) as HealthBody;
    expect(headersOf(again)).toEqual(headersOf(first));
    expect(body.system.timestamp > firstBody.system.timestamp).toBe(true);
    // The request itself is in flight while its answer is made, as through the full pipeline.
    expect(body.executor).toEqual({ active: 1 });
    expect(Object.keys(body)).toEqual(Object.keys(firstBody));
  }
});
