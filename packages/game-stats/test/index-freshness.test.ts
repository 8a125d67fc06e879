/**
 * @module Tests: The index follows the folder while the bin runs: changed, new, deleted and newly corrupt
 * files, usercache renames, and the newer `players/stats` layout superseding `stats`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { eventually, getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let bin: RunningBin;

beforeAll(async () => {
  server = await createServerFolder({ players: 30, seed: 11, newLayoutShare: 0 });
  // The folder of the newer layout does not exist yet when the bin starts.
  await rm(path.join(server.dir, 'world', 'players'), { recursive: true });
  bin = await startBin(['--server-dir', server.dir]);
});

afterAll(async () => {
  await bin.stop();
  await server.remove();
});

const api = (route: string) => getJson(`${bin.url}${route}`);
const statsFile = (uuid: string, layout = 'stats') =>
  path.join(server.dir, 'world', ...layout.split('/'), `${uuid}.json`);
const fileWith = (deaths: number) =>
  JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': deaths } }, DataVersion: 4440 });

test('a rewritten file is re-read: the leaderboard and the record follow', async () => {
  const player = server.valid[4]!;
  await writeFile(statsFile(player.uuid), fileWith(99_999));
  await eventually(
    async () => (await api('/api/leaderboard/deaths?limit=1')).body.entries[0]?.uuid === player.uuid,
  );
  expect((await api(`/api/player/${player.uuid}/summary`)).body.combat.deaths).toBe(99_999);
});

test('a new player file appears; a deleted one disappears', async () => {
  const uuid = '12345678-1234-4234-8234-123456789abc';
  // Health's counts follow each change file by file (no recount of every player after a change).
  const before = (await api('/api/health')).body.index;
  await writeFile(statsFile(uuid), fileWith(7));
  await eventually(async () => (await api(`/api/player/${uuid}`)).status === 200);
  expect((await api('/api/players')).body.total).toBe(31);
  expect((await api('/api/health')).body.index).toMatchObject({
    players: before.players + 1,
    files: before.files + 1,
    skipped_files: before.skipped_files,
  });
  await rm(statsFile(uuid));
  await eventually(async () => (await api(`/api/player/${uuid}`)).status === 404);
  expect((await api('/api/players')).body.total).toBe(30);
  expect((await api('/api/health')).body.index).toMatchObject({
    players: before.players,
    files: before.files,
    skipped_files: before.skipped_files,
  });
});

test('the players/stats layout wins over stats in the same world (never counted twice)', async () => {
  const player = server.valid[6]!;
  await mkdir(path.dirname(statsFile(player.uuid, 'players/stats')), { recursive: true });
  await writeFile(statsFile(player.uuid, 'players/stats'), fileWith(5));
  await eventually(
    async () => (await api(`/api/player/${player.uuid}/summary`)).body.combat?.deaths === 5,
    20_000,
  );
});

test('a file that turns corrupt stops counting but never breaks a route', async () => {
  const player = server.valid[8]!;
  await writeFile(statsFile(player.uuid), '{"stats": {"minecraft:cus');
  await eventually(async () => (await api(`/api/player/${player.uuid}`)).body.message === 'Stats not found');
  expect((await api('/api/leaderboard/deaths')).status).toBe(200);
  expect((await api('/api/health')).body.index.skipped_files).toBe(1);
});

test('a rename in usercache.json is picked up', async () => {
  const player = server.valid[10]!;
  const file = path.join(server.dir, 'usercache.json');
  const entries = JSON.parse(await readFile(file, 'utf8')) as {
    name: string;
    uuid: string;
    expiresOn: string;
  }[];
  const entry = entries.find((item) => item.uuid === player.uuid)!;
  entry.name = 'Brand_New_Name';
  entry.expiresOn = '2027-01-30 10:00:00 +0000';
  await writeFile(file, JSON.stringify(entries));
  await eventually(async () => (await api('/api/player/Brand_New_Name')).status === 200);
  expect((await api('/api/player/Brand_New_Name')).body.uuid).toBe(player.uuid);
});
