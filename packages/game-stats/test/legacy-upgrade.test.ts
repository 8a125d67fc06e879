/**
 * @module Tests: a pre-1.13 statistics file is read with the names a 1.13 server writes for the
 * same player (the game's statistics data fixer and 1.13 flattening), through the bin: the
 * legacy player's record equals the hand-built 1.13 file's, and the renamed leaderboards rank
 * the legacy player with its values.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { getJson, type RunningBin, startBin } from './support/running-bin.js';

const legacyUuid = '11111111-1111-4111-8111-111111111111';
const modernUuid = '22222222-2222-4222-8222-222222222222';

/** A 1.12 file (flat keys, no DataVersion). */
const legacyFile = {
  'stat.killEntity.LavaSlime': 7,
  'stat.killEntity.EvocationIllager': 2,
  'stat.killEntity.PigZombie': 3,
  'stat.entityKilledBy.Skeleton': 4,
  'stat.furnaceInteraction': 11,
  'stat.craftingTableInteraction': 12,
  'stat.dispenserInspected': 13,
  'stat.playOneMinute': 72_000,
  'stat.walkOneCm': 1000,
  'stat.swimOneCm': 500,
  'stat.diveOneCm': 300,
  'stat.drop': 5,
  'stat.mineBlock.minecraft.log': 20,
  'stat.mineBlock.minecraft.log2': 5,
  'stat.mineBlock.minecraft.stone': 100,
  'stat.mineBlock.minecraft.grass': 9,
  'stat.mineBlock.minecraft.tallgrass': 8,
  'stat.mineBlock.minecraft.melon_block': 6,
  'stat.craftItem.minecraft.planks': 16,
  'stat.craftItem.minecraft.spawn_egg': 1,
  'stat.useItem.minecraft.wool': 3,
  'stat.useItem.minecraft.speckled_melon': 1,
  'stat.pickup.minecraft.melon': 4,
  'stat.drop.minecraft.reeds': 2,
  'stat.breakItem.minecraft.iron_pickaxe': 1,
  'stat.junkFished': 3,
  'achievement.openInventory': 1,
};

/**
 * What a 1.13 server writes for the same player, built by hand from the documented tables
 * (README, "Pre-1.13 files"): the spawn egg, `junkFished` and achievements are dropped;
 * `swimOneCm`/`diveOneCm` became `walk_on_water_one_cm`/`walk_under_water_one_cm` (1.13's
 * swimming took the old name); `tallgrass` without metadata is the dead bush; `melon` the item
 * is the slice and `melon_block` the block is the melon.
 */
const file113 = {
  stats: {
    'minecraft:killed': { 'minecraft:magma_cube': 7, 'minecraft:evoker': 2, 'minecraft:zombie_pigman': 3 },
    'minecraft:killed_by': { 'minecraft:skeleton': 4 },
    'minecraft:custom': {
      'minecraft:interact_with_furnace': 11,
      'minecraft:interact_with_crafting_table': 12,
      'minecraft:inspect_dispenser': 13,
      'minecraft:play_one_minute': 72_000,
      'minecraft:walk_one_cm': 1000,
      'minecraft:walk_on_water_one_cm': 500,
      'minecraft:walk_under_water_one_cm': 300,
      'minecraft:drop': 5,
    },
    'minecraft:mined': {
      'minecraft:oak_log': 20,
      'minecraft:acacia_log': 5,
      'minecraft:stone': 100,
      'minecraft:grass_block': 9,
      'minecraft:dead_bush': 8,
      'minecraft:melon': 6,
    },
    'minecraft:crafted': { 'minecraft:oak_planks': 16 },
    'minecraft:used': { 'minecraft:white_wool': 3, 'minecraft:glistering_melon_slice': 1 },
    'minecraft:picked_up': { 'minecraft:melon_slice': 4 },
    'minecraft:dropped': { 'minecraft:sugar_cane': 2 },
    'minecraft:broken': { 'minecraft:iron_pickaxe': 1 },
  },
  DataVersion: 1519,
};

let dir: string;
let bin: RunningBin;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'game-stats-legacy-'));
  await writeFile(path.join(dir, 'server.properties'), 'level-name=world\nenable-rcon=false\n');
  await writeFile(
    path.join(dir, 'usercache.json'),
    JSON.stringify([
      { name: 'OldTimer', uuid: legacyUuid, expiresOn: '2026-12-30 10:00:00 +0000' },
      { name: 'Upgraded', uuid: modernUuid, expiresOn: '2026-12-30 10:00:00 +0000' },
    ]),
  );
  await mkdir(path.join(dir, 'world', 'stats'), { recursive: true });
  await writeFile(path.join(dir, 'world', 'stats', `${legacyUuid}.json`), JSON.stringify(legacyFile));
  await writeFile(path.join(dir, 'world', 'stats', `${modernUuid}.json`), JSON.stringify(file113));
  bin = await startBin(['--server-dir', dir]);
});

afterAll(async () => {
  await bin.stop();
  await rm(dir, { recursive: true, force: true });
});

const api = (route: string) => getJson(`${bin.url}${route}`);

test('the legacy record holds exactly the names and values a 1.13 server writes', async () => {
  const legacy = await api(`/api/player/${legacyUuid}`);
  expect(legacy.status).toBe(200);
  expect(legacy.body.stats).toEqual(file113.stats);
  expect(legacy.body.stats).toEqual((await api(`/api/player/${modernUuid}`)).body.stats);
});

test.each([
  ['killed.magma_cube', 7],
  ['killed.evoker', 2],
  ['interact_with_furnace', 11],
  ['interact_with_crafting_table', 12],
  ['inspect_dispenser', 13],
  ['mined.oak_log', 20],
  ['mined.dead_bush', 8],
  ['used.glistering_melon_slice', 1],
  ['walk_on_water_one_cm', 500],
])('%s ranks the legacy player with its value, like the upgraded one', async (stat, value) => {
  const { status, body } = await api(`/api/leaderboard/${stat}`);
  expect(status).toBe(200);
  const byName = Object.fromEntries(
    body.entries.map((entry: { name: string; value: number }) => [entry.name, entry.value]),
  );
  expect(byName).toEqual({ OldTimer: value, Upgraded: value });
});

test('the summaries agree (play time from play_one_minute, distance from the renamed keys)', async () => {
  const legacy = (await api(`/api/player/${legacyUuid}/summary`)).body;
  const modern = (await api(`/api/player/${modernUuid}/summary`)).body;
  expect(legacy.playtime_ticks).toBe(72_000);
  expect({ ...legacy, uuid: null, name: null, metadata: null }).toEqual({
    ...modern,
    uuid: null,
    name: null,
    metadata: null,
  });
});
