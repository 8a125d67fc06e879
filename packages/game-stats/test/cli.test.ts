/**
 * @module Tests: `game-stats top` and `game-stats player` print readable tables (or JSON) from a server folder
 * without starting the API; bad input exits non-zero with a one-line message.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServerFolder, custom, type GeneratedServer } from './support/generated-server.js';
import { runCli } from './support/running-bin.js';

let server: GeneratedServer;

beforeAll(async () => {
  server = await createServerFolder({ players: 60, seed: 21 });
});

afterAll(() => server.remove());

const cli = runCli;

const byDeaths = () =>
  [...server.valid].sort((a, b) => custom(b, 'deaths') - custom(a, 'deaths') || (a.name! < b.name! ? -1 : 1));

describe('top', () => {
  test('prints an aligned table of the leaderboard', async () => {
    const { code, stdout } = await cli('top', 'deaths', '--limit', '3', '--server-dir', server.dir);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RANK\s+NAME\s+DEATHS\s+UUID$/);
    expect(lines[1]).toMatch(/^-+( {2}-+){3}$/);
    const expected = byDeaths().slice(0, 3);
    expected.forEach((player, index) => {
      const columns = lines[2 + index]!.trim().split(/\s+/);
      expect(columns).toEqual([
        String(index + 1),
        player.name,
        String(custom(player, 'deaths')),
        player.uuid,
      ]);
    });
    expect(lines.at(-1)).toBe('3 of 60 players (page 0)');
  });

  test('--json prints the leaderboard body; playtime is formatted in the table', async () => {
    const { stdout } = await cli('top', 'playtime', '-n', '2', '--json', '--server-dir', server.dir);
    const body = JSON.parse(stdout);
    expect(body).toMatchObject({ stat: 'playtime', limit: 2, total: 60 });
    expect(body.entries[0].formatted).toMatch(/s$/);
    const table = await cli('top', 'playtime', '-n', '1', '--server-dir', server.dir);
    expect(table.stdout.split('\n')[2]).toContain(body.entries[0].formatted);
  });

  test('unknown stat and bad limit exit 1 with the API message', async () => {
    const unknown = await cli('top', 'no_such_stat', '--server-dir', server.dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('error: Unknown statistic: no_such_stat');
    const bad = await cli('top', 'deaths', '--limit', 'many', '--server-dir', server.dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('limit');
  });
});

describe('player', () => {
  test('prints a two-column summary; --json prints the summary body', async () => {
    const player = server.valid[2]!;
    const { code, stdout } = await cli('player', player.name!, '--server-dir', server.dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Name\\s+${player.name}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^Deaths\\s+${custom(player, 'deaths')}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^Play time\\s+.*\\(${custom(player, 'play_time')} ticks\\)$`, 'm'));
    const json = JSON.parse((await cli('player', player.uuid, '--json', '--server-dir', server.dir)).stdout);
    expect(json).toMatchObject({ uuid: player.uuid, playtime_ticks: custom(player, 'play_time') });
  });

  test('unknown player exits 1', async () => {
    const { code, stderr } = await cli('player', 'Nobody', '--server-dir', server.dir);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('error: Player not found: Nobody');
  });
});

test('a missing server folder exits 2 with a clear message', async () => {
  const { code, stderr } = await cli('top', 'deaths', '--server-dir', path.join(server.dir, 'nope'));
  expect(code).toBe(2);
  expect(stderr.trim()).toMatch(/^game-stats: server-dir .*nope does not exist$/);
});

test('an invalid config file exits 2 naming the key, without a stack trace', async () => {
  const file = path.join(server.dir, 'bad.yml');
  await writeFile(file, 'pagination:\n  max-limit: -3\nrate-limit:\n  requestz: 5\n');
  const { code, stderr } = await cli('top', 'deaths', '--config', file);
  expect(code).toBe(2);
  expect(stderr).toContain('pagination.max-limit');
  expect(stderr).not.toMatch(/\n\s+at /);
});
