/**
 * @module Tests: `createStatsApi` embedded in a host: custom statistics from the config and through
 * `registerStat`, worlds summed, a failing handler answered with the spec's 500 body.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LeaderboardBody } from '../src/http/response-schemas.js';
import { createStatsApi, type StatsApi } from '../src/index.js';
import { categorySum, createServerFolder, custom, type GeneratedServer } from './support/generated-server.js';
import { eventually } from './support/running-bin.js';

let server: GeneratedServer;
let api: StatsApi;
const shared = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

beforeAll(async () => {
  server = await createServerFolder({ players: 50, seed: 31 });
  // A second world where one player also played.
  const nether = path.join(server.dir, 'extra_world', 'stats');
  await mkdir(nether, { recursive: true });
  const first = server.valid[0]!;
  await writeFile(
    path.join(nether, `${first.uuid}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 1000, 'minecraft:jump': 1 } } }),
  );
  await writeFile(
    path.join(nether, `${shared}.json`),
    JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 1 } } }),
  );
  api = await createStatsApi({
    config: {
      'server-dir': server.dir,
      worlds: ['world', 'extra_world'],
      'custom-stats': { travel: ['custom.walk_one_cm', 'minecraft:custom:minecraft:sprint_one_cm'] },
      'rate-limit': { enabled: false },
    },
    live: false,
    peerAddress: () => '127.0.0.1',
  });
});

afterAll(async () => {
  api.close();
  await server.remove();
});

async function leaderboard(stat: string, query = ''): Promise<{ status: number; body: LeaderboardBody }> {
  const response = await api.fetch(new Request(`http://host/api/leaderboard/${stat}?limit=100${query}`));
  return { status: response.status, body: (await response.json()) as LeaderboardBody };
}

test('values of the same key are summed across worlds', async () => {
  const first = server.valid[0]!;
  const response = await api.fetch(new Request(`http://host/api/player/${first.uuid}/summary`));
  const body = (await response.json()) as { combat: { deaths: number }; movement: { jumps: number } };
  expect(body.combat.deaths).toBe(custom(first, 'deaths') + 1000);
  expect(body.movement.jumps).toBe(custom(first, 'jump') + 1);
  expect((await leaderboard('deaths')).body.total).toBe(51);
});

test('custom statistic from the config sums its parts', async () => {
  const { status, body } = await leaderboard('travel');
  expect(status).toBe(200);
  const expected = server.valid
    .map((player) => custom(player, 'walk_one_cm') + custom(player, 'sprint_one_cm'))
    .sort((a, b) => b - a);
  expect(body.entries.map((entry) => entry.value).slice(0, 50)).toEqual(expected);
});

test('registerStat adds list and function statistics; bad names are refused', async () => {
  api.registerStat('loot', ['picked_up', 'crafted']);
  const loot = await leaderboard('loot');
  const expected = server.valid
    .map((player) => categorySum(player, 'picked_up') + categorySum(player, 'crafted'))
    .sort((a, b) => b - a);
  expect(loot.body.entries.map((entry) => entry.value).slice(0, 50)).toEqual(expected);
  api.registerStat('stone_per_death', (stats) =>
    Math.floor(stats.get('mined', 'stone') / Math.max(1, stats.get('custom', 'deaths'))),
  );
  const ratio = await leaderboard('stone_per_death', '&order=asc');
  expect(ratio.status).toBe(200);
  expect(ratio.body.metadata.ascending).toBe(true);
  expect(() => api.registerStat('playtime', ['jump'])).toThrow(/built-in/);
  expect(() => api.registerStat('Bad Name', ['jump'])).toThrow(/invalid/);
});

test('a handler error becomes the spec 500 body, without a stack trace', async () => {
  api.registerStat('broken_stat', () => {
    throw new Error('secret internals at /srv/x.js:1');
  });
  const response = await api.fetch(new Request('http://host/api/leaderboard/broken_stat'));
  expect(response.status).toBe(500);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({
    success: false,
    status: 500,
    error: 'Internal server error',
    timestamp: expect.any(String),
  });
});

test('a rescan (the safety net behind the watcher) picks up changed and vanished files', async () => {
  const folder = await createServerFolder({ players: 12, seed: 41 });
  const local = await createStatsApi({
    config: { 'server-dir': folder.dir, index: { watch: false, 'rescan-seconds': 0 } },
    peerAddress: () => '127.0.0.1',
  });
  try {
    const file = (uuid: string) => path.join(folder.dir, 'world', 'stats', `${uuid}.json`);
    const inOldLayout = folder.valid.filter((player) => player.layout === 'stats');
    expect(inOldLayout.length).toBeGreaterThan(1);
    await writeFile(
      file(inOldLayout[0]!.uuid),
      JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 4242 } } }),
    );
    await rm(file(inOldLayout[1]!.uuid));
    const before = await (await local.fetch(new Request('http://host/api/players'))).json();
    expect((before as { total: number }).total).toBe(12);
    await local.index.rescan();
    const board = (await (
      await local.fetch(new Request('http://host/api/leaderboard/deaths?limit=1'))
    ).json()) as LeaderboardBody;
    expect(board.entries[0]).toMatchObject({ uuid: inOldLayout[0]!.uuid, value: 4242 });
    expect(board.total).toBe(11);
  } finally {
    local.close();
    await folder.remove();
  }
});

test('after start, the watcher re-reads only the file that changed (no re-check of every file)', async () => {
  const folder = await createServerFolder({ players: 60, seed: 43, newLayoutShare: 0.5 });
  const local = await createStatsApi({
    config: { 'server-dir': folder.dir, rcon: { enabled: false }, query: { enabled: false } },
    peerAddress: () => '127.0.0.1',
  });
  try {
    const player = folder.valid[0]!;
    await writeFile(
      path.join(folder.dir, 'world', ...player.layout.split('/'), `${player.uuid}.json`),
      JSON.stringify({ stats: { 'minecraft:custom': { 'minecraft:deaths': 31_337 } } }),
    );
    await eventually(async () => {
      const board = (await (
        await local.fetch(new Request('http://host/api/leaderboard/deaths?limit=1'))
      ).json()) as LeaderboardBody;
      return board.entries[0]?.value === 31_337;
    });
    expect(local.index.following).toEqual({ checked: 1, reread: 1 });
  } finally {
    local.close();
    await folder.remove();
  }
});
