/**
 * @module Writes a realistic game server folder (server.properties, usercache.json, per-player
 * statistics files in both layouts, optional corrupt and legacy files) from a seed, for the
 * tests, the benchmark and the demo server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const blocks = [
  'stone',
  'dirt',
  'grass_block',
  'deepslate',
  'oak_log',
  'sand',
  'gravel',
  'coal_ore',
  'iron_ore',
  'diamond_ore',
  'netherrack',
  'cobblestone',
  'andesite',
  'granite',
  'diorite',
  'birch_log',
  'spruce_log',
  'copper_ore',
];
const items = [
  'stick',
  'oak_planks',
  'torch',
  'crafting_table',
  'furnace',
  'iron_pickaxe',
  'diamond_pickaxe',
  'bread',
  'chest',
  'iron_ingot',
  'bow',
  'arrow',
  'shield',
  'iron_sword',
  'cooked_beef',
  'ladder',
  'rail',
  'bucket',
];
const mobs = [
  'zombie',
  'skeleton',
  'creeper',
  'spider',
  'enderman',
  'cow',
  'pig',
  'sheep',
  'chicken',
  'witch',
];
const syllables = [
  'ka',
  'zu',
  'mi',
  'ro',
  'te',
  'an',
  'el',
  'is',
  'or',
  'ux',
  'ly',
  'qu',
  'be',
  'do',
  'ne',
  'fa',
];

/** Small deterministic PRNG (mulberry32). */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(random) {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function nameFrom(random, index) {
  const parts = Array.from(
    { length: 2 + Math.floor(random() * 2) },
    () => syllables[Math.floor(random() * syllables.length)],
  );
  const base = parts.join('');
  return `${base[0].toUpperCase()}${base.slice(1)}_${index}`.slice(0, 16);
}

function pick(random, list, count) {
  const chosen = new Set();
  while (chosen.size < Math.min(count, list.length)) chosen.add(list[Math.floor(random() * list.length)]);
  return [...chosen];
}

/** Plausible upper bounds of a player's general statistics (ticks, cm, tenths of HP, counts). */
const customMaxima = {
  play_time: 20 * 3600 * 300,
  deaths: 400,
  player_kills: 60,
  mob_kills: 5_000,
  damage_dealt: 200_000,
  damage_taken: 80_000,
  jump: 150_000,
  walk_one_cm: 80_000_000,
  sprint_one_cm: 40_000_000,
  fly_one_cm: 20_000_000,
  swim_one_cm: 3_000_000,
  open_chest: 3_000,
  leave_game: 900,
  time_since_death: 20 * 3600 * 20,
  sneak_time: 200_000,
  climb_one_cm: 500_000,
  boat_one_cm: 2_000_000,
  crouch_one_cm: 800_000,
  fall_one_cm: 1_500_000,
  interact_with_crafting_table: 1_500,
};

/** More general statistics a casual player collects (the `casual` shape). */
const casualCustomMaxima = {
  walk_on_water_one_cm: 400_000,
  walk_under_water_one_cm: 300_000,
  minecart_one_cm: 200_000,
  horse_one_cm: 900_000,
  aviate_one_cm: 5_000_000,
  total_world_time: 20 * 3600 * 320,
  time_since_rest: 20 * 3600 * 5,
  sleep_in_bed: 300,
  eat_cake_slice: 40,
  open_barrel: 800,
};

const int = (random, max) => 1 + Math.floor(random() * max);

/**
 * One player's modern `stats` object: about 60 entries (1.8 KB), or with `shape: 'casual'`
 * about 80 entries (2.4 KB) as in a casual player's file.
 */
export function randomStats(random, shape = 'default') {
  const casual = shape === 'casual';
  const entries = (names, max) =>
    Object.fromEntries(names.map((name) => [`minecraft:${name}`, int(random, max)]));
  const custom = Object.fromEntries(
    Object.entries(casual ? { ...customMaxima, ...casualCustomMaxima } : customMaxima).map(([name, max]) => [
      `minecraft:${name}`,
      int(random, max),
    ]),
  );
  const spread = casual ? 8 : 4;
  return {
    'minecraft:custom': custom,
    'minecraft:mined': entries(pick(random, blocks, spread + Math.floor(random() * 12)), 5_000),
    'minecraft:crafted': entries(pick(random, items, 2 + Math.floor(random() * 8)), 300),
    'minecraft:used': entries(pick(random, items, 2 + Math.floor(random() * 8)), 2_000),
    'minecraft:broken': entries(pick(random, items.slice(5, 8), 1), 20),
    'minecraft:picked_up': entries(
      pick(random, [...blocks, ...items], spread + Math.floor(random() * 10)),
      3_000,
    ),
    'minecraft:dropped': entries(pick(random, items, 1 + Math.floor(random() * 4)), 200),
    'minecraft:killed': entries(pick(random, mobs, 2 + Math.floor(random() * 5)), 400),
    'minecraft:killed_by': entries(pick(random, mobs, 1 + Math.floor(random() * 3)), 10),
  };
}

/**
 * @param {string} dir
 * @param {{ players: number, seed?: number, newLayoutShare?: number, corrupt?: number, legacy?: number,
 *   unnamed?: number, rcon?: { port: number, password: string }, compact?: boolean,
 *   shape?: 'default' | 'casual' }} options
 */
export async function generateServer(dir, options) {
  const random = createRandom(options.seed ?? 1);
  const world = path.join(dir, 'world');
  const oldLayout = path.join(world, 'stats');
  const newLayout = path.join(world, 'players', 'stats');
  await mkdir(oldLayout, { recursive: true });
  await mkdir(newLayout, { recursive: true });
  const players = [];
  const usercache = [];
  const newShare = options.newLayoutShare ?? 0.3;
  const spacing = options.compact ? undefined : 2;
  for (let index = 0; index < options.players; index++) {
    const uuid = uuidFrom(random);
    const name = nameFrom(random, index);
    const stats = randomStats(random, options.shape);
    const layout = random() < newShare ? 'players/stats' : 'stats';
    // The first `unnamed` players are missing from usercache.json, as happens on real servers.
    const hasName = index >= (options.unnamed ?? 0);
    players.push({ uuid, name: hasName ? name : null, layout, stats });
    if (hasName) usercache.push({ name, uuid, expiresOn: '2026-12-24 10:00:00 +0000' });
  }
  const writes = players.map(
    (player) => () =>
      writeFile(
        path.join(player.layout === 'stats' ? oldLayout : newLayout, `${player.uuid}.json`),
        `${JSON.stringify({ stats: player.stats, DataVersion: 4440 }, null, spacing)}\n`,
      ),
  );
  for (let index = 0; index < (options.corrupt ?? 0); index++) {
    const uuid = uuidFrom(random);
    const broken = ['', '{"stats": {"minecraft:custom": {"minecraft:play_ti', 'null', '[1,2,3]'][index % 4];
    writes.push(() => writeFile(path.join(oldLayout, `${uuid}.json`), broken));
    players.push({ uuid, name: null, layout: 'stats', stats: null, corrupt: true });
  }
  for (let index = 0; index < (options.legacy ?? 0); index++) {
    const uuid = uuidFrom(random);
    const name = `Legacy_${index}`;
    const flat = {
      'stat.playOneMinute': 72_000 * (index + 1),
      'stat.deaths': index + 2,
      'stat.mineBlock.minecraft.stone': 50 + index,
      'stat.jump': 10,
    };
    writes.push(() => writeFile(path.join(oldLayout, `${uuid}.json`), JSON.stringify(flat)));
    usercache.push({ name, uuid, expiresOn: '2026-12-24 10:00:00 +0000' });
    players.push({ uuid, name, layout: 'stats', stats: null, legacy: flat });
  }
  // A few hundred files at a time: all at once would exhaust file descriptors.
  for (let start = 0; start < writes.length; start += 256) {
    await Promise.all(writes.slice(start, start + 256).map((write) => write()));
  }
  await writeFile(path.join(dir, 'usercache.json'), JSON.stringify(usercache, null, spacing));
  const rcon = options.rcon;
  await writeFile(
    path.join(dir, 'server.properties'),
    [
      '#Minecraft server properties',
      'level-name=world',
      'max-players=50',
      'server-port=25565',
      `enable-rcon=${rcon ? 'true' : 'false'}`,
      `rcon.port=${rcon?.port ?? 25575}`,
      `rcon.password=${rcon?.password ?? ''}`,
      'enable-query=false',
      '',
    ].join('\n'),
  );
  return players;
}
