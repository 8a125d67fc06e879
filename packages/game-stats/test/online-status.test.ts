/**
 * @module Tests: Online status from a fake RCON server speaking the real protocol (bin over HTTP), including
 * chunked answers, renames, reconnection and a refused login; and from a fake Query server
 * (library API).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HealthBody, PlayersBody } from '../src/http/response-schemas.js';
import { createStatsApi } from '../src/index.js';
import { FakeQueryServer } from './support/fake-query.js';
import { FakeRconServer } from './support/fake-rcon.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { eventually, getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let rcon: FakeRconServer;
let bin: RunningBin;
const password = 'rcon-pass';
const newcomer = { name: 'FreshJoin', uuid: 'feed0000-0000-4000-8000-00000000beef' };

beforeAll(async () => {
  rcon = new FakeRconServer(password);
  const port = await rcon.start();
  server = await createServerFolder({ players: 200, seed: 5, rcon: { port, password } });
  await writeFile(path.join(server.dir, 'fast.yml'), 'server-dir: .\nrcon:\n  interval-seconds: 0.2\n');
  rcon.online = [
    { name: server.valid[0]!.name!, uuid: server.valid[0]!.uuid },
    { name: 'Renamed_Now', uuid: server.valid[1]!.uuid },
    newcomer,
  ];
  bin = await startBin(['--config', path.join(server.dir, 'fast.yml')]);
});

afterAll(async () => {
  await bin.stop();
  await rcon.stop();
  await server.remove();
});

const api = (route: string) => getJson(`${bin.url}${route}`);

describe('RCON', () => {
  test('health reports the source, the online count and the max from `list uuids`', async () => {
    await eventually(async () => (await api('/api/health')).body.players.online === 3);
    const { body } = await api('/api/health');
    expect(body.players).toEqual({ online: 3, max: 20 });
    expect(body.online_status).toMatchObject({ source: 'rcon', connected: true, last_error: null });
    expect(body.system.status).toBe('ok');
    expect(rcon.commands).toContain('list uuids');
  });

  test('online flags in lists, records and leaderboards; online_only filters', async () => {
    const online = (await api('/api/players?online_only=true')).body;
    expect(online.total).toBe(3);
    expect(online.players.every((player: { online: boolean }) => player.online)).toBe(true);
    expect(online.players.map((player: { uuid: string }) => player.uuid).sort()).toEqual(
      [server.valid[0]!.uuid, server.valid[1]!.uuid, newcomer.uuid].sort(),
    );
    expect((await api(`/api/player/${server.valid[0]!.uuid}`)).body.online).toBe(true);
    expect((await api(`/api/player/${server.valid[2]!.uuid}`)).body.online).toBe(false);
    const board = (await api('/api/leaderboard/deaths?online_only=true')).body;
    expect(board.total).toBe(2);
    expect(board.metadata.online_only).toBe(true);
    expect(board.entries.map((entry: { rank: number }) => entry.rank)).toEqual([1, 2]);
  });

  test('the name RCON reports wins over usercache; a newcomer without a file gets the soft error', async () => {
    const renamed = await api('/api/player/Renamed_Now');
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ uuid: server.valid[1]!.uuid, name: 'Renamed_Now' });
    expect((await api(`/api/player/${server.valid[1]!.name}`)).status).toBe(404);
    const fresh = await api('/api/player/FreshJoin');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ error: true, message: 'Stats not found' });
  });

  test('answers longer than one 4096-byte packet are joined', async () => {
    rcon.online = server.valid.slice(0, 150).map((player) => ({ name: player.name!, uuid: player.uuid }));
    expect(Buffer.byteLength(rcon.listOutput(true))).toBeGreaterThan(4096);
    await eventually(async () => (await api('/api/health')).body.players.online === 150);
  });

  test('reconnects after the server goes away (health degraded meanwhile)', async () => {
    const loginsBefore = rcon.logins;
    const port = rcon.port;
    await rcon.stop();
    await eventually(async () => (await api('/api/health')).body.system.status === 'degraded');
    const degraded = (await api('/api/health')).body;
    expect(degraded.online_status.connected).toBe(false);
    expect(degraded.players.online).toBe(0);
    expect(degraded.online_status.last_error).toEqual(expect.any(String));
    rcon.online = [newcomer];
    await rcon.start(port);
    await eventually(async () => (await api('/api/health')).body.players.online === 1, 20_000);
    expect(rcon.logins).toBeGreaterThan(loginsBefore);
  });
});

describe('refused RCON login', () => {
  test('health says degraded with the reason; everything else still answers', async () => {
    const wrong = await createServerFolder({
      players: 5,
      seed: 6,
      rcon: { port: rcon.port, password: 'nope' },
    });
    const other = await startBin(['--server-dir', wrong.dir]);
    try {
      const { body } = await getJson(`${other.url}/api/health`);
      expect(body.system.status).toBe('degraded');
      expect(body.online_status.last_error).toContain('login refused');
      expect((await getJson(`${other.url}/api/players`)).body.total).toBe(5);
      expect(other.logs()).not.toContain('nope');
    } finally {
      await other.stop();
      await wrong.remove();
    }
  });
});

describe('Query', () => {
  test('full stat names are mapped to UUIDs through the usercache', async () => {
    const query = new FakeQueryServer();
    const port = await query.start();
    const folder = await createServerFolder({ players: 20, seed: 8 });
    query.players = [folder.valid[3]!.name!, folder.valid[4]!.name!, 'UnknownVisitor'];
    const api = await createStatsApi({
      config: { 'server-dir': folder.dir, query: { enabled: true, port, 'interval-seconds': 60 } },
      peerAddress: () => '127.0.0.1',
    });
    try {
      const health = (await (await api.fetch(new Request('http://local/api/health'))).json()) as HealthBody;
      expect(health.online_status).toMatchObject({ source: 'query', connected: true });
      expect(health.players).toEqual({ online: 2, max: 30 });
      expect(health.system.game_version).toBe('1.21.4');
      const online = (await (
        await api.fetch(new Request('http://local/api/players?online_only=1'))
      ).json()) as PlayersBody;
      expect(online.players.map((player) => player.name).sort()).toEqual(
        [folder.valid[3]!.name, folder.valid[4]!.name].sort(),
      );
    } finally {
      api.close();
      query.stop();
      await folder.remove();
    }
  });
});
