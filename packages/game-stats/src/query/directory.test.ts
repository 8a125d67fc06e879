/**
 * @module Tests: Roster search and leaderboard ranking (property-based).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { packStats } from '../index/compact-stats.js';
import { PlayerIndex } from '../index/player-index.js';
import { Presence } from '../online/presence.js';
import { Directory } from './directory.js';
import { StatResolver } from './stat-resolver.js';

/** An index filled in memory: uuid i named names[i], with `deaths` values[i]. */
function directoryOf(names: string[], deaths: number[], online: number[] = []) {
  const index = new PlayerIndex({ serverDir: '/nonexistent', worlds: ['world'] });
  names.forEach((name, position) => {
    const uuid = `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`;
    const stats = packStats(
      [{ 'minecraft:custom': { 'minecraft:deaths': deaths[position] ?? 0 } }],
      index.keys,
    );
    index.players.set(uuid, { uuid, stats, readAt: 0, files: [] });
    index.names.claim(uuid, name, 1);
  });
  const presence = new Presence('rcon');
  presence.update(
    online.map((position) => `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`),
    20,
    1,
  );
  return { directory: new Directory(index, presence), resolver: new StatResolver(index.keys) };
}

const nameArbitrary = fc.stringMatching(/^[A-Za-z0-9_]{1,16}$/);

test('search finds exactly the names containing the needle (case-insensitive), in name order', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nameArbitrary, { maxLength: 60, selector: (name) => name.toLowerCase() }),
      fc.stringMatching(/^[a-z0-9_]{1,3}$/),
      (names, needle) => {
        const { directory } = directoryOf(names, []);
        const result = directory.listPlayers({
          limit: 1000,
          page: 0,
          ascending: true,
          onlineOnly: false,
          search: needle,
        });
        const expected = names
          .filter((name) => name.toLowerCase().includes(needle))
          .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
        expect(result.players.map((player) => player.name)).toEqual(expected);
      },
    ),
  );
});

test('leaderboard ranks are dense, ties ordered by name, pages consistent with the whole', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nameArbitrary, { minLength: 1, maxLength: 40, selector: (name) => name.toLowerCase() }),
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 40, maxLength: 40 }),
      fc.boolean(),
      (names, deaths, ascending) => {
        const { directory, resolver } = directoryOf(names, deaths);
        const stat = resolver.resolve('deaths')!;
        const all = directory.leaderboard(stat, {
          limit: 100,
          page: 0,
          ascending,
          onlineOnly: false,
        }).entries;
        const expected = names
          .map((name, position) => ({ name, value: deaths[position]! }))
          .sort(
            (a, b) =>
              (ascending ? a.value - b.value : b.value - a.value) ||
              (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1),
          );
        expect(all.map((entry) => [entry.name, entry.value])).toEqual(
          expected.map((entry) => [entry.name, entry.value]),
        );
        const distinct = [...new Set(expected.map((entry) => entry.value))];
        expect(all.map((entry) => entry.rank)).toEqual(
          expected.map((entry) => distinct.indexOf(entry.value) + 1),
        );
        const second = directory.leaderboard(stat, {
          limit: 3,
          page: 1,
          ascending,
          onlineOnly: false,
        }).entries;
        expect(second).toEqual(all.slice(3, 6));
      },
    ),
  );
});

test('online_only ranks among online players only', () => {
  const { directory, resolver } = directoryOf(['a', 'b', 'c', 'd'], [5, 9, 5, 1], [0, 2, 3]);
  const board = directory.leaderboard(resolver.resolve('deaths')!, {
    limit: 10,
    page: 0,
    ascending: false,
    onlineOnly: true,
  });
  expect(board.entries.map((entry) => [entry.name, entry.rank, entry.online])).toEqual([
    ['a', 1, true],
    ['c', 1, true],
    ['d', 2, true],
  ]);
  expect(board.total).toBe(3);
});
