/**
 * @module Tests: a network of three generated servers sharing some players, through the bin over
 * HTTP and the CLI: sums across servers checked against the files as the test reads them,
 * `?server=`, names across usercaches, online status per server, a server folder taken away
 * and brought back, RCON down on one server.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRandom, randomStats, type StatsObject } from '../bench/server-generator.mjs';
import { FakeRconServer } from './support/fake-rcon.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { eventually, getJson, type RunningBin, runCli, startBin } from './support/running-bin.js';

const names = ['survival', 'creative', 'minigames'] as const;
type ServerName = (typeof names)[number];
const password = 'net-pass';
/** Players of survival who also play on creative and minigames (with values of their own there). */
const sharedCount = 8;

const servers = {} as Record<ServerName, GeneratedServer>;
const rcons = {} as Record<ServerName, FakeRconServer>;
let bin: RunningBin;
let configFile: string;
/** The shared player renamed on minigames (its usercache entry there is the newest). */
let renamed: { uuid: string; name: string };

/** Every statistics file of a server folder, read here (newest layout first, as the game moves them). */
async function filesOf(dir: string): Promise<Map<string, StatsObject>> {
  const byUuid = new Map<string, StatsObject>();
  for (const folder of ['world/players/stats', 'world/stats']) {
    for (const name of await readdir(path.join(dir, folder)).catch(() => [] as string[])) {
      const uuid = name.slice(0, -'.json'.length);
      if (byUuid.has(uuid)) continue;
      byUuid.set(
        uuid,
        (JSON.parse(await readFile(path.join(dir, folder, name), 'utf8')) as { stats: StatsObject }).stats,
      );
    }
  }
  return byUuid;
}

const customOf = (stats: StatsObject | undefined, key: string) =>
  stats?.['minecraft:custom']?.[`minecraft:${key}`] ?? 0;
const minedOf = (stats: StatsObject | undefined) =>
  Object.values(stats?.['minecraft:mined'] ?? {}).reduce((sum, value) => sum + value, 0);

/** The expected value of a figure per player: on one server, or summed over the network. */
async function expected(figure: (stats: StatsObject | undefined) => number, only?: ServerName) {
  const totals = new Map<string, number>();
  for (const name of only ? [only] : names) {
    for (const [uuid, stats] of await filesOf(servers[name].dir))
      totals.set(uuid, (totals.get(uuid) ?? 0) + figure(stats));
  }
  return totals;
}

const api = (route: string) => getJson(`${bin.url}${route}`);

/** Waits until health shows the server in the state. */
const serverBecomes = (name: ServerName, state: string, timeoutMs?: number) =>
  eventually(
    async () =>
      (await api('/api/health')).body.servers.find((server: { name: string }) => server.name === name)
        .state === state,
    timeoutMs,
  );

beforeAll(async () => {
  for (const [position, name] of names.entries()) {
    rcons[name] = new FakeRconServer(password);
    const port = await rcons[name].start();
    servers[name] = await createServerFolder({ players: 30, seed: 70 + position, rcon: { port, password } });
  }
  // Survival's first players also play on the other two servers, with values of their own there.
  const random = createRandom(99);
  const shared = servers.survival.valid.slice(0, sharedCount);
  for (const name of ['creative', 'minigames'] as const) {
    const dir = servers[name].dir;
    const usercache = JSON.parse(await readFile(path.join(dir, 'usercache.json'), 'utf8')) as object[];
    for (const player of shared) {
      await writeFile(
        path.join(dir, 'world', 'stats', `${player.uuid}.json`),
        JSON.stringify({ stats: randomStats(random), DataVersion: 4440 }),
      );
      usercache.push({ name: player.name, uuid: player.uuid, expiresOn: '2026-12-24 10:00:00 +0000' });
    }
    await writeFile(path.join(dir, 'usercache.json'), JSON.stringify(usercache));
  }
  // The game's usercache keeps a name a month after the last login: the latest expiry is the latest name.
  renamed = { uuid: shared[1]!.uuid, name: 'Renamed_Later' };
  const minigamesCache = path.join(servers.minigames.dir, 'usercache.json');
  const entries = JSON.parse(await readFile(minigamesCache, 'utf8')) as {
    uuid: string;
    name: string;
    expiresOn: string;
  }[];
  const entry = entries.find((candidate) => candidate.uuid === renamed.uuid)!;
  Object.assign(entry, { name: renamed.name, expiresOn: '2026-12-27 10:00:00 +0000' });
  await writeFile(minigamesCache, JSON.stringify(entries));

  configFile = path.join(servers.survival.dir, 'network.yml');
  await writeFile(
    configFile,
    [
      'rcon:',
      '  interval-seconds: 0.2',
      'history-seconds: 1',
      'servers:',
      '  - name: survival',
      '    server-dir: .',
      ...(['creative', 'minigames'] as const).flatMap((name) => [
        `  - name: ${name}`,
        `    server-dir: ${path.relative(servers.survival.dir, servers[name].dir)}`,
      ]),
      '',
    ].join('\n'),
  );
  rcons.survival.online = [{ name: shared[0]!.name!, uuid: shared[0]!.uuid }];
  rcons.creative.online = [{ name: servers.creative.valid[3]!.name!, uuid: servers.creative.valid[3]!.uuid }];
  bin = await startBin(['--config', configFile]);
}, 60_000);

afterAll(async () => {
  await bin?.stop();
  for (const name of names) {
    await rcons[name]?.stop();
    await servers[name]?.remove();
  }
});

describe('a network of three servers', () => {
  test('leaderboards count every server: each player once, by UUID, values summed', async () => {
    const playtime = await expected((stats) => customOf(stats, 'play_time'));
    const { status, body } = await api('/api/leaderboard/playtime?limit=100');
    expect(status).toBe(200);
    expect(body.total).toBe(playtime.size);
    expect(playtime.size).toBe(90);
    for (const entry of body.entries) expect(entry.value).toBe(playtime.get(entry.uuid));
    const values = body.entries.map((entry: { value: number }) => entry.value);
    expect(values).toEqual([...playtime.values()].sort((a, b) => b - a).slice(0, 100));
    const mined = await expected(minedOf);
    const top = (await api('/api/leaderboard/blocks_mined?limit=1')).body.entries[0];
    expect(top.value).toBe(Math.max(...mined.values()));
  });

  test('?server= ranks one server alone; players and lists follow it', async () => {
    for (const name of names) {
      const deaths = await expected((stats) => customOf(stats, 'deaths'), name);
      const { body } = await api(`/api/leaderboard/deaths?limit=100&server=${name}`);
      expect(body.total).toBe(deaths.size);
      for (const entry of body.entries) expect(entry.value).toBe(deaths.get(entry.uuid));
      expect(body.metadata.server).toBe(name);
      expect((await api(`/api/players?server=${name}&limit=1`)).body.total).toBe(deaths.size);
    }
    expect((await api('/api/players?limit=1')).body.total).toBe(90);
    expect((await api('/api/leaderboard/deaths?limit=1')).body.metadata.server).toBeNull();
  });

  test("a shared player's summary is the sum, with a per-server breakdown", async () => {
    const player = servers.survival.valid[0]!;
    const { status, body } = await api(`/api/player/${player.uuid}/summary`);
    expect(status).toBe(200);
    const playtime = await expected((stats) => customOf(stats, 'play_time'));
    const deaths = await expected((stats) => customOf(stats, 'deaths'));
    expect(body.playtime_ticks).toBe(playtime.get(player.uuid));
    expect(body.combat.deaths).toBe(deaths.get(player.uuid));
    expect(Object.keys(body.per_server).sort()).toEqual([...names].sort());
    for (const name of names) {
      const own = (await filesOf(servers[name].dir)).get(player.uuid);
      expect(body.per_server[name].playtime_ticks).toBe(customOf(own, 'play_time'));
      expect(body.per_server[name].activity.blocks_mined).toBe(minedOf(own));
    }
    const creativeOnly = (await api(`/api/player/${player.uuid}/summary?server=creative`)).body;
    expect(creativeOnly.playtime_ticks).toBe(
      customOf((await filesOf(servers.creative.dir)).get(player.uuid), 'play_time'),
    );
    expect(creativeOnly.per_server).toBeUndefined();
    const record = (await api(`/api/player/${player.uuid}?server=minigames&categories=custom`)).body;
    expect(record['minecraft:custom']).toEqual(
      (await filesOf(servers.minigames.dir)).get(player.uuid)!['minecraft:custom'],
    );
  });

  test('a player without a file on the server asked for is the soft Stats not found', async () => {
    const onlyCreative = servers.creative.valid[5]!;
    expect((await api(`/api/player/${onlyCreative.uuid}/summary?server=survival`)).body).toEqual({
      error: true,
      message: 'Stats not found',
    });
  });

  test('the name is the one of the usercache entry seen last, on any server', async () => {
    expect((await api(`/api/player/${renamed.uuid}/summary`)).body.name).toBe(renamed.name);
    expect((await api(`/api/player/${renamed.name}/summary?server=survival`)).body.uuid).toBe(renamed.uuid);
  });

  test('an unknown server is a 404 in the spec error format', async () => {
    for (const route of [
      '/api/leaderboard/deaths?server=skyblock',
      '/api/players?server=skyblock',
      `/api/player/${servers.survival.valid[0]!.uuid}?server=skyblock`,
      `/api/player/${servers.survival.valid[0]!.uuid}/summary?server=skyblock&since=1h`,
    ]) {
      const { status, body } = await api(route);
      expect(status).toBe(404);
      expect(body).toEqual({
        success: false,
        status: 404,
        error: 'Unknown server: skyblock',
        timestamp: expect.any(String),
      });
    }
  });

  test('windowed leaderboards and summaries take ?server=, each server measured from its own history', async () => {
    const player = servers.survival.valid[2]!;
    const since = Date.now();
    const addDeaths = async (name: ServerName, more: number) => {
      const file = path.join(servers[name].dir, 'world', 'stats', `${player.uuid}.json`);
      const stats = (JSON.parse(await readFile(file, 'utf8')) as { stats: StatsObject }).stats;
      stats['minecraft:custom']!['minecraft:deaths'] = customOf(stats, 'deaths') + more;
      await writeFile(file, JSON.stringify({ stats, DataVersion: 4440 }));
    };
    await addDeaths('creative', 40);
    await addDeaths('minigames', 2);
    const deaths = await expected((stats) => customOf(stats, 'deaths'));
    await eventually(
      async () =>
        (await api(`/api/player/${player.uuid}/summary`)).body.combat.deaths === deaths.get(player.uuid),
    );
    const gains = async (query: string) => {
      const { status, body } = await api(
        `/api/leaderboard/deaths?since=${new Date(since).toISOString()}&limit=2${query}`,
      );
      expect(status).toBe(200);
      expect(body.window.complete).toBe(true);
      return body.entries.map((entry: { uuid: string; value: number }) => [entry.uuid, entry.value]);
    };
    expect(await gains('&server=creative')).toEqual([
      [player.uuid, 40],
      [expect.any(String), 0],
    ]);
    expect(await gains('&server=minigames')).toEqual([
      [player.uuid, 2],
      [expect.any(String), 0],
    ]);
    expect(await gains('')).toEqual([
      [player.uuid, 42],
      [expect.any(String), 0],
    ]);
    expect((await gains('&server=survival'))[0][1]).toBe(0);
    const summary = (await api(`/api/player/${player.uuid}/summary?since=${new Date(since).toISOString()}`))
      .body;
    expect(summary.combat.deaths).toBe(42);
    expect(summary.window.complete).toBe(true);
    expect(Object.fromEntries(names.map((name) => [name, summary.per_server[name].combat.deaths]))).toEqual({
      survival: 0,
      creative: 40,
      minigames: 2,
    });
  });

  test('online status comes from each server, with the server each player is on', async () => {
    const survivor = servers.survival.valid[0]!;
    const builder = servers.creative.valid[3]!;
    await eventually(async () => (await api('/api/health')).body.players.online === 2);
    const online = (await api('/api/players?online_only=true')).body;
    expect(
      online.players.map((player: { uuid: string; server: string }) => [player.uuid, player.server]).sort(),
    ).toEqual(
      [
        [survivor.uuid, 'survival'],
        [builder.uuid, 'creative'],
      ].sort(),
    );
    expect((await api('/api/players?online_only=true&server=creative')).body.total).toBe(1);
    const health = (await api('/api/health')).body;
    expect(
      health.servers.map((server: { name: string; state: string }) => [server.name, server.state]),
    ).toEqual(names.map((name) => [name, 'ok']));
    expect(health.servers.find((server: { name: string }) => server.name === 'creative')).toMatchObject({
      players: 30 + sharedCount,
      online: 1,
      online_status: { source: 'rcon', connected: true },
    });
    expect(health.system.status).toBe('ok');
  });
});

describe('degradation', () => {
  test('RCON down on one server: that server is offline, the others answer as before', async () => {
    await rcons.minigames.stop();
    await serverBecomes('minigames', 'offline');
    const health = (await api('/api/health')).body;
    expect(health.system.status).toBe('degraded');
    expect(health.servers.map((server: { state: string }) => server.state)).toEqual(['ok', 'ok', 'offline']);
    expect(health.servers[2].reason).toMatch(/^rcon unreachable: /);
    const board = await api('/api/leaderboard/deaths?server=minigames&limit=1');
    expect(board.status).toBe(200);
    expect(board.body.servers[2]).toMatchObject({ name: 'minigames', state: 'offline' });
    expect((await api('/api/health')).body.players.online).toBe(2);
    await rcons.minigames.start(rcons.minigames.port);
    await eventually(
      async () =>
        (await api('/api/health')).body.servers.every((server: { state: string }) => server.state === 'ok'),
      30_000,
    );
  }, 60_000);

  test('a server folder taken away keeps its last data, flagged stale, and recovers when it is back', async () => {
    const deaths = await expected((stats) => customOf(stats, 'deaths'));
    const creativeDeaths = await expected((stats) => customOf(stats, 'deaths'), 'creative');
    const before = (await api('/api/leaderboard/deaths?limit=100')).body.entries;
    const away = `${servers.creative.dir}.away`;
    await rename(servers.creative.dir, away);
    // The game still writing into the moved folder: its watcher reports the file under the old
    // path, which is gone. The player must not be taken for deleted.
    const moved = servers.creative.valid[1]!;
    const movedFile = path.join(away, 'world', moved.layout, `${moved.uuid}.json`);
    const movedStats = (JSON.parse(await readFile(movedFile, 'utf8')) as { stats: StatsObject }).stats;
    movedStats['minecraft:custom']!['minecraft:deaths'] = 123_456;
    await writeFile(movedFile, JSON.stringify({ stats: movedStats, DataVersion: 4440 }));
    try {
      await serverBecomes('creative', 'stale');
      const health = (await api('/api/health')).body;
      expect(health.system.status).toBe('degraded');
      expect(health.servers[1]).toMatchObject({
        name: 'creative',
        state: 'stale',
        reason: 'server folder unreadable (ENOENT)',
      });
      const board = await api('/api/leaderboard/deaths?limit=100&server=creative');
      expect(board.status).toBe(200);
      expect(board.body.total).toBe(creativeDeaths.size);
      for (const entry of board.body.entries) expect(entry.value).toBe(creativeDeaths.get(entry.uuid));
      expect(board.body.servers[1].state).toBe('stale');
      const whole = await api('/api/leaderboard/deaths?limit=100');
      expect(whole.body.entries).toEqual(before);
      expect(whole.body.total).toBe(deaths.size);
      const player = servers.creative.valid[0]!;
      expect((await api(`/api/player/${player.uuid}/summary?server=creative`)).status).toBe(200);
    } finally {
      await rename(away, servers.creative.dir);
    }
    await serverBecomes('creative', 'ok');
    // Read again on its return: the change made while it was away shows.
    await eventually(
      async () =>
        (await api(`/api/player/${moved.uuid}/summary?server=creative`)).body.combat?.deaths === 123_456,
    );
    // Followed again: a change after its return is read.
    const player = servers.creative.valid[0]!;
    const file = path.join(servers.creative.dir, 'world', player.layout, `${player.uuid}.json`);
    const stats = (JSON.parse(await readFile(file, 'utf8')) as { stats: StatsObject }).stats;
    stats['minecraft:custom']!['minecraft:deaths'] = 987_654;
    await writeFile(file, JSON.stringify({ stats, DataVersion: 4440 }));
    await eventually(
      async () =>
        (await api(`/api/player/${player.uuid}/summary?server=creative`)).body.combat?.deaths === 987_654,
    );
  }, 60_000);
});

describe('restart', () => {
  test('one index snapshot for the network, one history per server beside it; a restart reads no file', async () => {
    const files = (await api('/api/health')).body.index.files;
    const before = (await api('/api/leaderboard/playtime?limit=100')).body.entries;
    await bin.stop();
    const cache = path.join(process.env.XDG_CACHE_HOME!, 'game-stats');
    const entries = await readdir(cache);
    const creativeHistory = entries.find((entry) => entry.endsWith('.snapshot.history-creative'))!;
    const snapshot = creativeHistory.slice(0, -'.history-creative'.length);
    expect(entries).toEqual(
      expect.arrayContaining([
        snapshot,
        `${snapshot}.history`,
        ...names.map((name) => `${snapshot}.history-${name}`),
      ]),
    );
    for (const name of names)
      expect((await readdir(path.join(cache, `${snapshot}.history-${name}`))).length).toBeGreaterThan(0);
    bin = await startBin(['--config', configFile]);
    const health = (await api('/api/health')).body;
    expect(health.index.restored_files).toBe(files);
    expect(health.index.files).toBe(files);
    expect((await api('/api/leaderboard/playtime?limit=100')).body.entries).toEqual(before);
  }, 60_000);
});

describe('a single server', () => {
  test('answers without any network field, and ignores ?server=', async () => {
    const single = await startBin(['--server-dir', servers.survival.dir]);
    try {
      const player = servers.survival.valid[0]!;
      for (const route of [
        '/api/players?limit=3',
        '/api/leaderboard/playtime?limit=3',
        `/api/player/${player.uuid}`,
        `/api/player/${player.uuid}/summary`,
      ]) {
        const plain = await getJson(`${single.url}${route}`);
        const text = JSON.stringify(plain.body);
        expect(text).not.toMatch(/"(servers|server|per_server)":/);
        const scoped = await getJson(
          `${single.url}${route}${route.includes('?') ? '&' : '?'}server=creative`,
        );
        expect(scoped.status).toBe(200);
        const { metadata: _a, ...plainBody } = plain.body;
        const { metadata: _b, ...scopedBody } = scoped.body;
        expect(scopedBody).toEqual(plainBody);
      }
      const health = (await getJson(`${single.url}/api/health`)).body;
      expect(health.servers).toBeUndefined();
    } finally {
      await single.stop();
    }
  });
});

describe('CLI with several --server-dir', () => {
  const cli = runCli;
  const dirs = () => names.flatMap((name) => ['--server-dir', `${name}=${servers[name].dir}`]);

  test('top ranks the network; player sums it with a per-server breakdown', async () => {
    const playtime = await expected((stats) => customOf(stats, 'play_time'));
    const top = await cli('top', 'playtime', '--json', '-n', '5', ...dirs());
    expect(top.code).toBe(0);
    const board = JSON.parse(top.stdout);
    expect(board.total).toBe(playtime.size);
    for (const entry of board.entries) expect(entry.value).toBe(playtime.get(entry.uuid));
    const shared = servers.survival.valid[2]!;
    const player = JSON.parse((await cli('player', shared.uuid, '--json', ...dirs())).stdout);
    expect(player.playtime_ticks).toBe(playtime.get(shared.uuid));
    expect(Object.keys(player.per_server).sort()).toEqual([...names].sort());
  });

  test('bare folders are named after their base name, made unique', async () => {
    const twin = path.join(servers.minigames.dir, 'twin', path.basename(servers.creative.dir));
    await mkdir(path.join(twin, 'world', 'stats'), { recursive: true });
    const shared = servers.survival.valid[2]!;
    const player = JSON.parse(
      (await cli('player', shared.uuid, '--json', '--server-dir', servers.creative.dir, '--server-dir', twin))
        .stdout,
    );
    const base = path.basename(servers.creative.dir).toLowerCase();
    expect(Object.keys(player.per_server)).toEqual([base]);
    expect(player.metadata.server).toBeNull();
  });

  test('a duplicate or invalid name exits 2 with a clear message', async () => {
    const duplicate = await cli(
      'top',
      'deaths',
      '--server-dir',
      `a=${servers.survival.dir}`,
      '--server-dir',
      `a=${servers.creative.dir}`,
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr.trim()).toBe('game-stats: --server-dir: duplicate server name "a"');
    const invalid = await cli(
      'top',
      'deaths',
      '--server-dir',
      `Big Server=${servers.survival.dir}`,
      '--server-dir',
      servers.creative.dir,
    );
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('invalid server name "Big Server"');
    const file = path.join(servers.survival.dir, 'dup.yml');
    await writeFile(
      file,
      `servers:\n  - name: x\n    server-dir: .\n  - name: x\n    server-dir: ${servers.creative.dir}\n`,
    );
    const inFile = await cli('top', 'deaths', '--config', file);
    expect(inFile.code).toBe(2);
    expect(inFile.stderr.trim()).toBe(`game-stats: ${file}: servers.1.name: duplicate server name "x"`);
    await writeFile(file, `server-dir: .\nservers:\n  - name: x\n    server-dir: .\n`);
    const both = await cli('top', 'deaths', '--config', file);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give either servers or server-dir and worlds, not both');
  });
});
