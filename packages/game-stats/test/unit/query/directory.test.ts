/**
 * @module Tests: Roster search and leaderboard ranking (property-based).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { packStats } from '../../../src/index/compact-stats.js';
import { PlayerIndex } from '../../../src/index/player-index.js';
import { Presence } from '../../../src/online/presence.js';
import { Directory } from '../../../src/query/directory.js';
import { StatResolver } from '../../../src/query/stat-resolver.js';

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
  return {
    directory: new Directory(index, presence),
    resolver: new StatResolver(index.keys),
    index,
    presence,
  };
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

/** A step of a live server: a file rewritten or deleted, a rename, someone logging in or out. */
type Step =
  | { kind: 'write'; player: number; deaths: number }
  | { kind: 'delete'; player: number }
  | { kind: 'rename'; player: number; name: string }
  | { kind: 'online'; players: number[] }
  | { kind: 'read' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write'), player: fc.nat(29), deaths: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant('delete'), player: fc.nat(29) }),
  fc.record({ kind: fc.constant('rename'), player: fc.nat(29), name: nameArbitrary }),
  fc.record({ kind: fc.constant('online'), players: fc.uniqueArray(fc.nat(29), { maxLength: 8 }) }),
  fc.constant({ kind: 'read' as const }),
);

test('incrementally updated rosters and rankings equal ones built from scratch after any changes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 30, maxLength: 30 }),
      fc.array(stepArbitrary, { maxLength: 40 }),
      (deaths, steps) => {
        const names = deaths.map((_, position) => `Player${position % 7}_${position}`);
        const { directory, resolver, index, presence } = directoryOf(names.slice(0, 20), deaths);
        const apply = stepper(index, presence);
        const answers = (of: Directory) => everyAnswer(of, resolver);
        answers(directory);
        for (const step of steps) {
          if (step.kind === 'read')
            expect(answers(directory)).toEqual(answers(new Directory(index, presence)));
          else apply(step);
        }
        expect(answers(directory)).toEqual(answers(new Directory(index, presence)));
      },
    ),
    { numRuns: 200 },
  );
});

test('a ranking prepared in steps while players change equals one built from scratch', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 30, maxLength: 30 }),
      fc.array(stepArbitrary, { maxLength: 30 }),
      fc.boolean(),
      async (deaths, steps, ascending) => {
        const names = deaths.map((_, position) => `Player${position % 7}_${position}`);
        const { index, presence, resolver } = directoryOf(names.slice(0, 20), deaths);
        // Three players per step: the changes land between the steps.
        const directory = new Directory(index, presence, 3);
        const apply = stepper(index, presence);
        const preparing = directory.prepare(resolver.resolve('deaths')!, ascending);
        for (const step of steps) {
          if (step.kind !== 'read') apply(step);
          await new Promise((resolve) => setImmediate(resolve));
        }
        await preparing;
        // Prepared means current: the leaderboard re-sorts and re-places nothing itself, and no
        // step of the preparation handled more than three values.
        directory.listPlayers({ limit: 1, page: 0, ascending, onlineOnly: false, search: '' });
        const before = directory.work();
        directory.leaderboard(resolver.resolve('deaths')!, {
          limit: 100,
          page: 0,
          ascending,
          onlineOnly: false,
        });
        expect(directory.work()).toEqual(before);
        expect(before.longestStep).toBeGreaterThan(0);
        expect(before.longestStep).toBeLessThanOrEqual(3);
        expect(everyAnswer(directory, resolver)).toEqual(
          everyAnswer(new Directory(index, presence), resolver),
        );
      },
    ),
    { numRuns: 100 },
  );
});

function uuidOf(position: number) {
  return `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`;
}

/** Applies a change step to the index and presence, as the watcher and the poller would. */
function stepper(index: PlayerIndex, presence: Presence) {
  let seenAt = 2;
  return (step: Exclude<Step, { kind: 'read' }>) => {
    const uuid = 'player' in step ? uuidOf(step.player) : '';
    if (step.kind === 'write') {
      const stats = packStats([{ 'minecraft:custom': { 'minecraft:deaths': step.deaths } }], index.keys);
      index.players.set(uuid, { uuid, stats, readAt: 0, files: [] });
      index.journal.record(uuid);
    } else if (step.kind === 'delete') {
      index.players.delete(uuid);
      index.journal.record(uuid);
    } else if (step.kind === 'rename') index.names.claim(uuid, step.name, seenAt++);
    else presence.update(step.players.map(uuidOf), 20, seenAt++);
  };
}

/** Every leaderboard and player list answer of `deaths`, both orders, online-only or not. */
function everyAnswer(of: Directory, resolver: StatResolver) {
  const stat = resolver.resolve('deaths')!;
  const page = { limit: 100, page: 0 };
  return [true, false].flatMap((ascending) =>
    [true, false].map((onlineOnly) => ({
      leaderboard: of.leaderboard(stat, { ...page, ascending, onlineOnly }),
      players: of.listPlayers({ ...page, ascending, onlineOnly, search: '' }),
      search: of.listPlayers({ ...page, ascending, onlineOnly, search: 'r3' }),
    })),
  );
}

test('a change to one player re-places that player in each ranking instead of re-sorting all', () => {
  const names = Array.from({ length: 500 }, (_, position) => `Player_${position}`);
  const deaths = names.map((_, position) => position % 13);
  const { directory, resolver, index } = directoryOf(names, deaths);
  const stat = resolver.resolve('deaths')!;
  const page = { limit: 10, page: 0, ascending: false, onlineOnly: false };
  directory.leaderboard(stat, page);
  const before = directory.work();
  const uuid = '00000000-0000-4000-8000-000000000042';
  const stats = packStats([{ 'minecraft:custom': { 'minecraft:deaths': 1_000 } }], index.keys);
  index.players.set(uuid, { uuid, stats, readAt: 0, files: [] });
  index.journal.record(uuid);
  expect(directory.leaderboard(stat, page).entries[0]).toMatchObject({ uuid, rank: 1, value: 1_000 });
  const after = directory.work();
  expect(after.rebuilds).toBe(before.rebuilds);
  // The roster (name unchanged: nothing to move) and the ranking each looked at one player.
  expect(after.replaced - before.replaced).toBe(2);
});

/** 200 players, `deaths` = position % 17, ranked once (descending) by a directory of `step`-value steps. */
async function preparedBoard(step: number) {
  const names = Array.from({ length: 200 }, (_, position) => `Player_${position}`);
  const { index, presence, resolver } = directoryOf(
    names,
    names.map((_, position) => position % 17),
  );
  const directory = new Directory(index, presence, step);
  const stat = resolver.resolve('deaths')!;
  await directory.prepare(stat, false);
  return { directory, index, presence, stat };
}

test('a statistic ranked for the first time is sorted in steps: no sort call ever takes more than a step of values', async () => {
  const names = Array.from({ length: 200 }, (_, position) => `Player_${position}`);
  const { index, presence, resolver } = directoryOf(
    names,
    names.map((_, position) => (position * 7919) % 101),
  );
  const directory = new Directory(index, presence, 10);
  const stat = resolver.resolve('deaths')!;
  directory.listPlayers({ limit: 1, page: 0, ascending: true, onlineOnly: false, search: '' });
  const sortedLengths: number[] = [];
  const nativeSort = Float64Array.prototype.sort;
  Float64Array.prototype.sort = function (this: Float64Array, ...rest) {
    sortedLengths.push(this.length);
    return nativeSort.apply(this, rest);
  };
  try {
    await directory.prepare(stat, false);
  } finally {
    Float64Array.prototype.sort = nativeSort;
  }
  expect(sortedLengths.length).toBeGreaterThan(0);
  expect(Math.max(...sortedLengths)).toBeLessThanOrEqual(10);
  expect(directory.work().longestStep).toBeLessThanOrEqual(10);
  const board = directory.leaderboard(stat, { limit: 200, page: 0, ascending: false, onlineOnly: false });
  expect(board.entries.map((entry) => entry.value)).toEqual(
    names.map((_, position) => (position * 7919) % 101).sort((a, b) => b - a),
  );
});

test('after changes, prepare re-places the changed players in bounded steps over many turns (no rebuild), and the leaderboard then has nothing left to do', async () => {
  const { directory, index, stat } = await preparedBoard(10);
  const page = { limit: 3, page: 0, ascending: false, onlineOnly: false };
  const top = directory.leaderboard(stat, page).entries;
  const before = directory.work();
  const changed = [5, 77, 150].map(uuidOf);
  for (const uuid of changed) {
    const stats = packStats([{ 'minecraft:custom': { 'minecraft:deaths': 500 } }], index.keys);
    index.players.set(uuid, { uuid, stats, readAt: 0, files: [] });
    index.journal.record(uuid);
  }
  let done = false;
  const preparing = directory.prepare(stat, false).then(() => {
    done = true;
  });
  let turns = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  await preparing;
  // 200 kept players walked and 200 ranks recounted, at most 10 a step: many turns, no rebuild.
  expect(turns).toBeGreaterThanOrEqual(20);
  const after = directory.work();
  expect(after.rebuilds).toBe(before.rebuilds);
  expect(after.longestStep).toBeLessThanOrEqual(10);
  expect(top).toHaveLength(3);
  expect(
    directory.leaderboard(stat, page).entries.map((entry) => [entry.uuid, entry.rank, entry.value]),
  ).toEqual(
    // Tied at 500, so by name: Player_150 < Player_5 < Player_77.
    [150, 5, 77].map((position) => [uuidOf(position), 1, 500]),
  );
  expect(directory.work().updates).toBe(after.updates);
});
