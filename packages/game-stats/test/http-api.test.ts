/**
 * @module Tests: Every route, parameter and error of the spec, through HTTP against the running bin on a
 * generated server folder (hundreds of players, both layouts, corrupt, legacy and unnamed files).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { GeneratedPlayer } from '../bench/server-generator.mjs';
import {
  healthSchema,
  leaderboardSchema,
  playerRecordSchema,
  playerSummarySchema,
  playersSchema,
} from '../src/http/response-schemas.js';
import {
  addUsercacheOnlyPlayer,
  categorySum,
  createServerFolder,
  custom,
  type GeneratedServer,
} from './support/generated-server.js';
import { getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let bin: RunningBin;
const nameless = '0badc0de-0000-4000-8000-000000000001';

beforeAll(async () => {
  server = await createServerFolder({
    players: 300,
    seed: 42,
    corrupt: 4,
    legacy: 2,
    unnamed: 3,
    newLayoutShare: 0.3,
  });
  await addUsercacheOnlyPlayer(server.dir, 'NoStatsYet', nameless);
  // Worker-thread reading from the first file on, so this suite covers that path of the build
  // (the other suites use the in-thread reader of small servers).
  await writeFile(path.join(server.dir, 'parallel.yml'), 'index:\n  parallel-read-min-files: 1\n');
  bin = await startBin(['--config', path.join(server.dir, 'parallel.yml'), '--server-dir', server.dir], {
    GAME_STATS_API_KEY: '',
  });
});

afterAll(async () => {
  expect(await bin.stop()).toBe(0);
  await server.remove();
});

const api = (path: string, init?: RequestInit) => getJson(`${bin.url}${path}`, init);
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const named = () =>
  server.valid.filter((player): player is GeneratedPlayer & { name: string } => player.name !== null);

describe('meta routes', () => {
  test('/api/health has every field of the spec with the right types', async () => {
    const { status, body, headers } = await api('/api/health');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(healthSchema.safeParse(body).success).toBe(true);
    expect(body.system.timestamp).toMatch(isoUtc);
    expect(body.players).toEqual({ online: 0, max: 50 });
    expect(body.features.rate_limit_enabled).toBe(true);
    expect(body.features.api_auth_enabled).toBe(false);
    expect(body.online_status).toMatchObject({ source: 'none', connected: false });
    // 300 modern + 2 legacy + 4 corrupt files; the corrupt ones are counted as skipped.
    expect(body.index).toMatchObject({ players: 306, files: 306, skipped_files: 4 });
  });

  test('/api and /api/docs', async () => {
    expect((await api('/api')).body).toEqual({
      name: 'game-stats',
      version: '1.0.0',
      docs: '/api/docs',
      openapi: '/api/openapi.json',
    });
    expect((await api('/api/docs')).body.routes).toEqual([
      '/api/health',
      '/api/players',
      '/api/player/{uuid}',
      '/api/player/{name}',
      '/api/player/{id}/summary',
      '/api/leaderboard/{stat}',
      '/api/docs',
    ]);
  });

  test('/api/openapi.json is OpenAPI 3.1 built from the request schemas', async () => {
    const { status, body } = await api('/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const players = body.paths['/api/players'].get;
    const names = players.parameters.map((parameter: { name: string }) => parameter.name).sort();
    expect(names).toEqual(['limit', 'online_only', 'order', 'page', 'search']);
    const limit = players.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    expect(limit.schema.pattern).toBeDefined();
    const record = body.paths['/api/player/{id}'].get.parameters.map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(record).toEqual(['id', 'categories', 'summary', 'raw']);
    expect(body.paths['/api/leaderboard/{stat}'].get.responses['404']).toBeDefined();
  });
});

describe('/api/players', () => {
  test('sorted by name A to Z by default, pages are zero-based, offset = page * limit', async () => {
    const sorted = [...server.players]
      .map((player) => (player.name ?? player.uuid).toLowerCase())
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const first = await api('/api/players?limit=10');
    expect(playersSchema.safeParse(first.body).success).toBe(true);
    expect(first.body.total).toBe(306);
    expect(first.body.players.map((player: { name: string }) => player.name.toLowerCase())).toEqual(
      sorted.slice(0, 10),
    );
    const third = await api('/api/players?limit=10&page=2');
    expect(third.body).toMatchObject({ limit: 10, page: 2, offset: 20 });
    expect(third.body.players.map((player: { name: string }) => player.name.toLowerCase())).toEqual(
      sorted.slice(20, 30),
    );
    const reversed = await api('/api/players?limit=5&order=desc');
    expect(reversed.body.metadata.ascending).toBe(false);
    expect(reversed.body.players.map((player: { name: string }) => player.name.toLowerCase())).toEqual(
      sorted.slice(-5).reverse(),
    );
  });

  test('default limit 25, limit above max-limit is clamped and reported', async () => {
    expect((await api('/api/players')).body.limit).toBe(25);
    const clamped = await api('/api/players?limit=5000');
    expect(clamped.status).toBe(200);
    expect(clamped.body.limit).toBe(100);
    expect(clamped.body.players).toHaveLength(100);
  });

  test('search is a case-insensitive name substring and is echoed', async () => {
    const target = named()[7]!;
    const needle = target.name.slice(1, 4).toUpperCase();
    const expected = server.players.filter((player) =>
      player.name?.toLowerCase().includes(needle.toLowerCase()),
    );
    const { body } = await api(`/api/players?limit=100&search=${needle}`);
    expect(body.total).toBe(expected.length);
    expect(body.metadata.search).toBe(needle);
    expect(body.players.map((player: { uuid: string }) => player.uuid).sort()).toEqual(
      expected.map((player) => player.uuid).sort(),
    );
  });

  test('a player without a name is listed by UUID; online_only with nobody online is empty', async () => {
    const unnamed = server.players.find((player) => player.name === null && player.stats)!;
    const { body } = await api(`/api/players?search=${unnamed.uuid.slice(0, 8)}`);
    expect(body.players).toEqual([{ uuid: unnamed.uuid, name: unnamed.uuid, online: false }]);
    const online = await api('/api/players?online_only=true');
    expect(online.body).toMatchObject({ total: 0, players: [] });
    expect(online.body.metadata.online_only).toBe(true);
  });

  test.each([
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=0', 'limit'],
    ['page=-2', 'page'],
    ['page=1.5', 'page'],
    ['order=up', 'order'],
    ['online_only=maybe', 'online_only'],
  ])('bad parameter %s -> 400 with the spec error body', async (query, field) => {
    const { status, body } = await api(`/api/players?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      status: 400,
      error: expect.stringContaining(field),
      timestamp: expect.any(String),
    });
    expect(body.timestamp).toMatch(isoUtc);
  });
});

describe('/api/player/{id}', () => {
  test('full record by UUID: summary from the file, raw category maps, stats dump, metadata', async () => {
    const player = named()[3]!;
    const { status, body } = await api(`/api/player/${player.uuid}`);
    expect(status).toBe(200);
    expect(playerRecordSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ uuid: player.uuid, name: player.name, online: false });
    expect(body.readTimestamp).toMatch(isoUtc);
    const walked = [
      'walk_one_cm',
      'sprint_one_cm',
      'fly_one_cm',
      'swim_one_cm',
      'climb_one_cm',
      'boat_one_cm',
      'crouch_one_cm',
    ];
    const distance = walked.reduce((sum, key) => sum + custom(player, key), 0);
    expect(body.summary).toEqual({
      playTimeTicks: custom(player, 'play_time'),
      playTimeFormatted: expect.stringMatching(/^(\d+d )?(\d+h )?(\d+m )?\d+s$/),
      deaths: custom(player, 'deaths'),
      playerKills: custom(player, 'player_kills'),
      mobKills: custom(player, 'mob_kills'),
      damageDealt: custom(player, 'damage_dealt'),
      damageTaken: custom(player, 'damage_taken'),
      jumps: custom(player, 'jump'),
      distanceCm: distance,
      distanceKm: Math.round(distance / 1000) / 100,
      chestsOpened: custom(player, 'open_chest'),
      itemsCrafted: categorySum(player, 'crafted'),
      itemsBroken: categorySum(player, 'broken'),
      itemsUsed: categorySum(player, 'used'),
      itemsDropped: categorySum(player, 'dropped'),
      itemsPickedUp: categorySum(player, 'picked_up'),
      blocksMined: categorySum(player, 'mined'),
    });
    expect(body['minecraft:mined']).toEqual(player.stats!['minecraft:mined']);
    expect(body.stats).toEqual(player.stats);
    expect(body.metadata).toMatchObject({
      summary_enabled: true,
      raw_enabled: true,
      categories_filter: null,
    });
  });

  test('by exact name, case-insensitive, and by UUID without dashes', async () => {
    const player = named()[11]!;
    expect((await api(`/api/player/${player.name.toUpperCase()}`)).body.uuid).toBe(player.uuid);
    expect((await api(`/api/player/${player.uuid.replaceAll('-', '')}`)).body.uuid).toBe(player.uuid);
  });

  test('categories filter, summary=false and raw=false slim the record', async () => {
    const player = named()[5]!;
    const filtered = (await api(`/api/player/${player.uuid}?categories=mined,pickedUp`)).body;
    expect(
      Object.keys(filtered)
        .filter((key) => key.includes(':'))
        .sort(),
    ).toEqual(['minecraft:mined', 'minecraft:picked_up']);
    expect(filtered.metadata.categories_filter).toEqual(['minecraft:mined', 'minecraft:picked_up']);
    const slim = (await api(`/api/player/${player.uuid}?summary=false&raw=false`)).body;
    expect(Object.keys(slim).sort()).toEqual(['metadata', 'name', 'online', 'readTimestamp', 'uuid']);
    expect(slim.metadata).toMatchObject({ summary_enabled: false, raw_enabled: false });
    const bad = await api(`/api/player/${player.uuid}?categories=mined,bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('bogus');
  });

  test('legacy pre-1.13 file is read leniently (play_one_minute, flat keys)', async () => {
    const legacy = server.players.find((player) => player.legacy)!;
    const { body } = await api(`/api/player/${legacy.name}/summary`);
    expect(body.playtime_ticks).toBe(legacy.legacy!['stat.playOneMinute']);
    expect(body.combat.deaths).toBe(legacy.legacy!['stat.deaths']);
    expect(body.activity.blocks_mined).toBe(legacy.legacy!['stat.mineBlock.minecraft.stone']);
  });

  test('unknown player -> 404; corrupt file or no file -> 200 soft "Stats not found"; bad id -> 400', async () => {
    const unknown = await api('/api/player/NobodyHere');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      success: false,
      status: 404,
      error: 'Player not found: NobodyHere',
    });
    const soft = await api('/api/player/NoStatsYet');
    expect(soft.status).toBe(200);
    expect(soft.body).toEqual({ error: true, message: 'Stats not found' });
    expect((await api(`/api/player/${nameless}/summary`)).body).toEqual({
      error: true,
      message: 'Stats not found',
    });
    const corrupt = server.players.find((player) => player.corrupt)!;
    expect((await api(`/api/player/${corrupt.uuid}`)).body).toEqual({
      error: true,
      message: 'Stats not found',
    });
    const bad = await api('/api/player/bad%20name!');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });
});

describe('/api/player/{id}/summary', () => {
  test('snake_case summary with metres and km at 2 decimals', async () => {
    const player = named()[9]!;
    const { body } = await api(`/api/player/${player.uuid}/summary`);
    expect(playerSummarySchema.safeParse(body).success).toBe(true);
    const ticks = custom(player, 'play_time');
    expect(body).toMatchObject({
      uuid: player.uuid,
      name: player.name,
      playtime_ticks: ticks,
      playtime_seconds: Math.floor(ticks / 20),
    });
    expect(body.combat).toEqual({
      deaths: custom(player, 'deaths'),
      player_kills: custom(player, 'player_kills'),
      mob_kills: custom(player, 'mob_kills'),
      damage_dealt: custom(player, 'damage_dealt'),
      damage_taken: custom(player, 'damage_taken'),
    });
    const walked = custom(player, 'walk_one_cm');
    expect(body.movement.distance_walked_cm).toBe(walked);
    expect(body.movement.distance_walked_m).toBe(Math.round(walked) / 100);
    expect(body.movement.jumps).toBe(custom(player, 'jump'));
    expect(body.activity.blocks_mined).toBe(categorySum(player, 'mined'));
  });

  test('section toggles drop combat, movement, activity', async () => {
    const player = named()[9]!;
    const { body } = await api(`/api/player/${player.uuid}/summary?combat=false&movement=false&activity=0`);
    expect(body.combat).toBeUndefined();
    expect(body.movement).toBeUndefined();
    expect(body.activity).toBeUndefined();
    expect((await api(`/api/player/${player.uuid}/summary?combat=nah`)).status).toBe(400);
  });
});

describe('/api/leaderboard/{stat}', () => {
  const ranked = (values: { name: string; value: number }[], ascending = false) =>
    [...values].sort(
      (a, b) =>
        (ascending ? a.value - b.value : b.value - a.value) ||
        (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1),
    );

  test('playtime: highest first, formatted, total counts every indexed player', async () => {
    const { body } = await api('/api/leaderboard/playtime?limit=5');
    expect(leaderboardSchema.safeParse(body).success).toBe(true);
    const values = server.valid.map((player) => ({
      name: player.name ?? player.uuid,
      value: custom(player, 'play_time'),
    }));
    for (const legacy of server.players.filter((player) => player.legacy)) {
      values.push({ name: legacy.name!, value: legacy.legacy!['stat.playOneMinute']! });
    }
    const expected = ranked(values).slice(0, 5);
    expect(body.total).toBe(306);
    expect(body.entries.map((entry: { value: number }) => entry.value)).toEqual(
      expected.map((entry) => entry.value),
    );
    expect(body.entries[0]).toMatchObject({ rank: 1, name: expected[0]!.name, online: false });
    const first = expected[0]!.value;
    const formatted = `${Math.floor(first / 20 / 86400)}d ${Math.floor((first / 20 / 3600) % 24)}h`;
    expect(body.entries[0].formatted.startsWith(formatted)).toBe(true);
  });

  test.each([
    ['deaths', (player: GeneratedPlayer) => custom(player, 'deaths')],
    ['mob_kills', (player: GeneratedPlayer) => custom(player, 'mob_kills')],
    ['player_kills', (player: GeneratedPlayer) => custom(player, 'player_kills')],
    ['blocks_mined', (player: GeneratedPlayer) => categorySum(player, 'mined')],
    ['items_picked_up', (player: GeneratedPlayer) => categorySum(player, 'picked_up')],
    ['items_crafted', (player: GeneratedPlayer) => categorySum(player, 'crafted')],
    ['mined.stone', (player: GeneratedPlayer) => player.stats?.['minecraft:mined']?.['minecraft:stone'] ?? 0],
    [
      'mine.minecraft:stone',
      (player: GeneratedPlayer) => player.stats?.['minecraft:mined']?.['minecraft:stone'] ?? 0,
    ],
    [
      'minecraft:killed:minecraft:zombie',
      (player: GeneratedPlayer) => player.stats?.['minecraft:killed']?.['minecraft:zombie'] ?? 0,
    ],
    ['used', (player: GeneratedPlayer) => categorySum(player, 'used')],
    ['jump', (player: GeneratedPlayer) => custom(player, 'jump')],
  ])('%s ranks by the expected value', async (stat, expectedValue) => {
    const { status, body } = await api(`/api/leaderboard/${stat}?limit=10`);
    expect(status).toBe(200);
    expect(body.stat).toBe(stat);
    const top = server.valid
      .map(expectedValue)
      .sort((a, b) => b - a)
      .slice(0, 10);
    expect(body.entries.map((entry: { value: number }) => entry.value)).toEqual(top);
    expect(body.entries[0].formatted).toBeUndefined();
  });

  test('ranks are dense and ties are ordered by name; order=asc reverses', async () => {
    // broken has few distinct values (1..20) across 300 players: many ties.
    const { body } = await api('/api/leaderboard/items_broken_check?limit=1');
    expect(body.status).toBe(404);
    const all = (await api('/api/leaderboard/broken?limit=100')).body.entries as {
      rank: number;
      name: string;
      value: number;
    }[];
    let rank = 0;
    all.forEach((entry, index) => {
      const previous = all[index - 1];
      if (!previous || previous.value !== entry.value) rank++;
      else expect(entry.name.toLowerCase() >= previous.name.toLowerCase()).toBe(true);
      expect(entry.rank).toBe(rank);
    });
    expect(new Set(all.map((entry) => entry.rank)).size).toBeLessThan(all.length);
    const ascending = (await api('/api/leaderboard/deaths?order=asc&limit=3')).body;
    expect(ascending.metadata.ascending).toBe(true);
    expect(ascending.entries[0].value).toBe(0);
    expect(ascending.entries[0].rank).toBe(1);
  });

  test('pages and clamped limit', async () => {
    const page = (await api('/api/leaderboard/deaths?limit=10&page=3')).body;
    expect(page).toMatchObject({ limit: 10, page: 3, offset: 30 });
    const top40 = (await api('/api/leaderboard/deaths?limit=40')).body.entries;
    expect(page.entries).toEqual(top40.slice(30, 40));
    expect((await api('/api/leaderboard/deaths?limit=1000')).body.limit).toBe(100);
  });

  test('unknown stat -> 404, malformed stat or params -> 400', async () => {
    const unknown = await api('/api/leaderboard/not_a_stat');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, status: 404 });
    expect((await api('/api/leaderboard/mined.unobtainium')).status).toBe(404);
    expect((await api('/api/leaderboard/bad%20stat')).status).toBe(400);
    expect((await api('/api/leaderboard/deaths?page=x')).status).toBe(400);
  });
});

describe('protocol behaviour', () => {
  test('405 for other methods, 404 for unknown routes, OPTIONS 204 with CORS', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const { status, body, headers } = await api('/api/players', { method });
      expect(status).toBe(405);
      expect(body).toMatchObject({ success: false, status: 405 });
      expect(headers.get('allow')).toBe('GET, OPTIONS');
    }
    const missing = await api('/api/nothing/here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      success: false,
      status: 404,
      error: 'No endpoint found for path: /api/nothing/here',
    });
    expect((await api('/')).status).toBe(404);
    const preflight = await fetch(`${bin.url}/api/players`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const normal = await fetch(`${bin.url}/api`);
    expect(normal.headers.get('access-control-allow-origin')).toBe('*');
    expect(normal.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('gzip only when the client asks for it', async () => {
    const { request } = await import('node:http');
    const raw = (encoding?: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const url = new URL(`${bin.url}/api/players?limit=100`);
        const req = request(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const zipped = await raw('gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.body).toString()).players).toHaveLength(100);
    const plain = await raw();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).players).toHaveLength(100);
  });

  test('corrupt and legacy files are logged once each, never a stack trace', async () => {
    const logs = bin.logs();
    const corrupt = server.players.filter((player) => player.corrupt);
    for (const player of corrupt) {
      expect(logs.split(player.uuid).length - 1).toBe(1);
    }
    expect(logs).not.toMatch(/\n\s+at /);
  });
});
