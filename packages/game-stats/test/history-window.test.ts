/**
 * @module Tests: leaderboards and summaries over a window, through the bin with
 * `--history-seconds 1`: gains since a time, since a snapshot taken while the bin runs, before
 * the first snapshot, over the current calendar period; bad windows are 400s; the snapshots are
 * files of their own beside the index snapshot and are restored at the next start.
 */
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServerFolder, custom, type GeneratedServer } from './support/generated-server.js';
import { eventually, getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let bin: RunningBin;
let args: string[];
let historyFolder: string;

beforeAll(async () => {
  server = await createServerFolder({ players: 20, seed: 23, newLayoutShare: 0 });
  const config = path.join(server.dir, 'history.yml');
  await writeFile(config, `index:\n  snapshot-file: ${path.join(server.dir, 'index.snapshot')}\n`);
  historyFolder = path.join(server.dir, 'index.snapshot.history');
  args = ['--config', config, '--server-dir', server.dir, '--history-seconds', '1'];
  bin = await startBin(args);
});

afterAll(async () => {
  await bin.stop();
  await server.remove();
});

const api = (route: string) => getJson(`${bin.url}${route}`);
const [first, second] = [() => server.valid[0]!, () => server.valid[1]!];
const writeDeaths = (uuid: string, deaths: number) =>
  writeFile(
    path.join(server.dir, 'world', 'stats', `${uuid}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': deaths } }, DataVersion: 4440 }),
  );
const iso = (ms: number) => new Date(ms).toISOString();
let sinceStart: number;

test('a leaderboard since a time ranks by what each player gained since the snapshot before it', async () => {
  sinceStart = Date.now();
  await writeDeaths(first().uuid, custom(first(), 'deaths') + 100);
  await writeDeaths(second().uuid, custom(second(), 'deaths') + 5);
  await eventually(async () => (await api(`/api/player/${first().uuid}/summary`)).body.combat.deaths > 100);
  const { status, body } = await api(`/api/leaderboard/deaths?since=${iso(sinceStart)}&limit=3`);
  expect(status).toBe(200);
  expect(body.stat).toBe('deaths');
  expect(body.window.complete).toBe(true);
  expect(Date.parse(body.window.from)).toBeLessThanOrEqual(sinceStart);
  expect(body.entries.map((entry: { uuid: string; value: number }) => [entry.uuid, entry.value])).toEqual([
    [first().uuid, 100],
    [second().uuid, 5],
    [expect.any(String), 0],
  ]);
  // The plain leaderboard is unchanged: totals.
  const plain = await api('/api/leaderboard/deaths?limit=100');
  expect(plain.body.window).toBeUndefined();
  const entry = plain.body.entries.find((row: { uuid: string }) => row.uuid === first().uuid);
  expect(entry.value).toBe(custom(first(), 'deaths') + 100);
});

test('snapshots are taken every --history-seconds: a later window starts after the change', async () => {
  const changed = Date.now();
  await eventually(async () => Date.parse((await api('/api/health')).body.history.last_at) > changed);
  const later = Date.now();
  await writeDeaths(first().uuid, custom(first(), 'deaths') + 107);
  await eventually(
    async () =>
      (await api(`/api/leaderboard/deaths?since=${iso(later)}&limit=1`)).body.entries[0].value === 7,
  );
  const { body } = await api(`/api/leaderboard/deaths?since=${iso(later)}&limit=2`);
  expect(body.entries.map((entry: { uuid: string; value: number }) => [entry.uuid, entry.value])).toEqual([
    [first().uuid, 7],
    [expect.any(String), 0],
  ]);
});

test('a window before the first snapshot is measured from the first snapshot, and says so', async () => {
  const health = (await api('/api/health')).body;
  for (const query of ['since=30d', 'since=2020-01-01', 'period=month']) {
    const { status, body } = await api(`/api/leaderboard/deaths?${query}&limit=2`);
    expect(status).toBe(200);
    expect(body.window).toEqual({ from: health.history.first_at, complete: false });
    expect(body.entries.map((entry: { value: number }) => entry.value)).toEqual([107, 5]);
  }
});

test("a player's summary over a window counts the gains; without one, the totals", async () => {
  const windowed = await api(`/api/player/${first().uuid}/summary?since=${iso(sinceStart)}`);
  expect(windowed.status).toBe(200);
  expect(windowed.body.combat.deaths).toBe(107);
  expect(windowed.body.playtime_ticks).toBe(0);
  expect(windowed.body.window.complete).toBe(true);
  const plain = await api(`/api/player/${first().uuid}/summary`);
  expect(plain.body.combat.deaths).toBe(custom(first(), 'deaths') + 107);
  expect(plain.body.window).toBeUndefined();
});

test.each([
  ['since=yesterday', 'since must be a duration'],
  ['since=2020-02-30', 'since must be a duration'],
  ['since=7d&period=day', 'since and period cannot be combined'],
  ['period=year', 'period must be day, week or month'],
  [`since=${iso(Date.now() + 86_400_000)}`, 'since must not be in the future'],
])('%s is a 400 in the error format', async (query, message) => {
  for (const route of ['/api/leaderboard/deaths', `/api/player/${first().uuid}/summary`]) {
    const { status, body } = await api(`${route}?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, status: 400 });
    expect(body.error).toContain(message);
  }
});

test('the snapshots are files of their own beside the index snapshot, restored at the next start', async () => {
  const before = (await api('/api/health')).body.history;
  expect(before.bytes).toBeGreaterThan(0);
  const files = (await readdir(historyFolder)).filter((name) => name.endsWith('.json.gz'));
  expect(files.length).toBe(before.snapshots);
  expect((await stat(path.join(historyFolder, files[0]!))).mode & 0o777).toBe(0o600);
  expect(await bin.stop()).toBe(0);
  bin = await startBin(args);
  const after = (await api('/api/health')).body.history;
  expect(after.first_at).toBe(before.first_at);
  expect(after.snapshots).toBeGreaterThan(before.snapshots);
  const { body } = await api(`/api/leaderboard/deaths?since=${iso(sinceStart)}&limit=2`);
  expect(body.entries.map((entry: { uuid: string; value: number }) => [entry.uuid, entry.value])).toEqual([
    [first().uuid, 107],
    [second().uuid, 5],
  ]);
});
