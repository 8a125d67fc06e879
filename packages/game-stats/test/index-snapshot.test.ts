/**
 * @module Tests: the index snapshot. A restart takes every unchanged file from the snapshot
 * (reading none of them) and reads only the files changed since; the answers are the same as
 * those of an index read from the files; a broken snapshot only means reading every file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createStatsApi, type StatsApi } from '../src/index.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';

let server: GeneratedServer;
let cacheDir: string;
const opened: StatsApi[] = [];

beforeAll(async () => {
  server = await createServerFolder({ players: 80, seed: 61, newLayoutShare: 0.4, corrupt: 3, legacy: 2 });
  cacheDir = await mkdtemp(path.join(tmpdir(), 'game-stats-snapshot-'));
});

afterAll(async () => {
  for (const api of opened) api.close();
  await server.remove();
  await rm(cacheDir, { recursive: true, force: true });
});

async function open(snapshotFile: string | false) {
  const api = await createStatsApi({
    config: { 'server-dir': server.dir, index: { 'snapshot-file': snapshotFile } },
    live: false,
    peerAddress: () => '127.0.0.1',
  });
  opened.push(api);
  await api.index.saveSnapshot();
  return api;
}

/** Bodies of routes that together cover every player's statistics, metadata timing left out. */
async function answers(api: StatsApi) {
  const routes = [
    '/api/players?limit=100',
    '/api/leaderboard/deaths?limit=100',
    '/api/leaderboard/mined?limit=100',
    '/api/leaderboard/playtime?limit=100&order=asc',
    ...server.players.slice(0, 12).map((player) => `/api/player/${player.uuid}`),
  ];
  return Promise.all(
    routes.map(async (route) => {
      const response = await api.fetch(new Request(`http://host${route}`));
      const body = (await response.json()) as { metadata?: object; readTimestamp?: string };
      delete body.metadata;
      delete body.readTimestamp;
      return { route, status: response.status, body };
    }),
  );
}

test('a restart takes unchanged files from the snapshot and reads only the changed one', async () => {
  const snapshot = path.join(cacheDir, 'index.snapshot');
  const first = await open(snapshot);
  expect(first.index.counts.restoredFiles).toBe(0);
  const files = first.index.counts.files;

  const player = server.valid[5]!;
  await writeFile(
    path.join(server.dir, 'world', ...player.layout.split('/'), `${player.uuid}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 123_456 } } }),
  );
  const restarted = await open(snapshot);
  expect(restarted.index.counts.restoredFiles).toBe(files - 1);
  const fromFiles = await open(false);
  expect(fromFiles.index.counts.restoredFiles).toBe(0);
  expect(await answers(restarted)).toEqual(await answers(fromFiles));
  const top = await restarted.fetch(new Request('http://host/api/leaderboard/deaths?limit=1'));
  expect(((await top.json()) as { entries: { uuid: string }[] }).entries[0]?.uuid).toBe(player.uuid);
});

test('a snapshot that is not one (or of another folder) is ignored: every file is read', async () => {
  const broken = path.join(cacheDir, 'broken.snapshot');
  await writeFile(broken, 'GSSNAP01 this is not a snapshot GSSNAPND');
  const api = await open(broken);
  expect(api.index.counts.restoredFiles).toBe(0);
  expect(await answers(api)).toEqual(await answers(await open(false)));
});
