/**
 * @module Tests: a Ranking's updates write into the arrays its previous install replaced instead
 * of allocating new ones, grow them only when the players outgrow them, and never let two
 * updates in flight share them; answers stay those of a ranking built from scratch.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { PlayerSlots } from '../../../src/query/player-slots.js';
import { type RankChange, Ranking } from '../../../src/query/ranking.js';
import { Roster } from '../../../src/query/roster.js';

/** Listed players (names tie often on their prefix) and the value each ranked one has. */
interface League {
  slots: PlayerSlots;
  roster: Roster;
  values: Map<number, number>;
}

function league(players: number): League {
  const slots = new PlayerSlots();
  const of = { slots, roster: new Roster(slots), values: new Map<number, number>() };
  join(of, players);
  return of;
}

/** Lists `players` more players (new slots), unranked. */
function join(of: League, players: number) {
  const start = of.slots.size;
  const members: [string, string][] = [];
  for (let slot = start; slot < start + players; slot++)
    members.push([`uuid-${slot}`, `P${slot % 7}_${slot}`]);
  of.roster.update(members);
}

/** Ranks the given slots from scratch with values from `valueAt`. */
function rankFirst(of: League, ascending: boolean, slots: number[], valueAt: (slot: number) => number) {
  for (const slot of slots) of.values.set(slot, valueAt(slot));
  const ranking = new Ranking(ascending, of.roster);
  ranking.rebuild(rankedValues(of.values), of.slots.size);
  return ranking;
}

function rankedValues(values: Map<number, number>) {
  return { slots: Int32Array.from(values.keys()), values: Float64Array.from(values.values()) };
}

/** What the ranking answers: slot, rank and value of every position. */
function answers(ranking: Ranking): number[][] {
  return Array.from({ length: ranking.size }, (_, position) => [
    ranking.slotAt(position),
    ranking.rankAt(position),
    ranking.valueAt(position),
  ]);
}

/** The answers of a ranking of `values` built from scratch. */
function fromScratch(of: League, ascending: boolean, values: Map<number, number>): number[][] {
  const ranking = new Ranking(ascending, of.roster);
  ranking.rebuild(rankedValues(values), of.slots.size);
  return answers(ranking);
}

function applied(values: Map<number, number>, changes: readonly RankChange[]): Map<number, number> {
  const next = new Map(values);
  for (const { slot, value } of changes) {
    if (value === null) next.delete(slot);
    else next.set(slot, value);
  }
  return next;
}

/** Updates in one go or in steps (run to their end here), and keeps the model in step. */
function update(ranking: Ranking, of: League, changes: readonly RankChange[], step?: number) {
  if (step === undefined) ranking.update(changes, of.slots.size);
  else for (const steps = ranking.updateSteps(changes, of.slots.size, step); !steps.next().done; );
  of.values = applied(of.values, changes);
}

/**
 * Typed arrays constructed with a length while `run` runs, counted apart from the ranking's own
 * counter: an allocation that bypassed it would show here.
 */
function newArraysDuring(run: () => void): number {
  const kinds = ['Int32Array', 'Uint32Array', 'Float64Array', 'Uint8Array'] as const;
  const originals = kinds.map((kind) => globalThis[kind]);
  let count = 0;
  kinds.forEach((kind, index) => {
    (globalThis as unknown as Record<string, unknown>)[kind] = new Proxy(originals[index]!, {
      construct(target, args) {
        if (typeof args[0] === 'number') count++;
        return Reflect.construct(target, args);
      },
    });
  });
  try {
    run();
  } finally {
    kinds.forEach((kind, index) => {
      (globalThis as unknown as Record<string, unknown>)[kind] = originals[index];
    });
  }
  return count;
}

const changesArbitrary = (players: number, maxLength: number) =>
  fc.uniqueArray(
    fc.record({
      slot: fc.nat(players - 1),
      value: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 4 }),
    }),
    { minLength: 1, maxLength, selector: (change) => change.slot },
  );

test('once warm, updates of a few players allocate no arrays, and answer as a ranking built from scratch', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 40, maxLength: 40 }),
      fc.boolean(),
      fc.array(fc.tuple(changesArbitrary(40, 5), fc.option(fc.integer({ min: 1, max: 7 }))), {
        minLength: 5,
        maxLength: 25,
      }),
      (initial, ascending, batches) => {
        const of = league(40);
        const ranking = rankFirst(of, ascending, [...initial.keys()], (slot) => initial[slot]!);
        // Warm-up: the first update has no spare yet, the second writes into the rebuild's arrays.
        update(ranking, of, [{ slot: 3, value: 9 }]);
        update(ranking, of, [{ slot: 4, value: null }], 2);
        const allocated = ranking.work.allocatedBytes;
        let constructed = 0;
        for (const [changes, step] of batches) {
          constructed += newArraysDuring(() => update(ranking, of, changes, step ?? undefined));
          expect(answers(ranking)).toEqual(fromScratch(of, ascending, of.values));
        }
        expect(ranking.work.allocatedBytes).toBe(allocated);
        expect(constructed).toBe(0);
        expect(ranking.work.updates).toBe(2 + batches.length);
      },
    ),
    { numRuns: 150 },
  );
});

test('players outgrowing the arrays make the next updates allocate larger ones, then none again', () => {
  const of = league(200);
  const ranking = rankFirst(of, false, [...Array(100).keys()], (slot) => slot % 9);
  update(ranking, of, [{ slot: 1, value: 50 }]);
  update(ranking, of, [{ slot: 2, value: 50 }]);
  const warm = ranking.work.allocatedBytes;
  update(ranking, of, [{ slot: 3, value: 7 }]);
  expect(ranking.work.allocatedBytes).toBe(warm);

  // Ranked players grow past the ranked arrays' room (100 ranked, 200 slots).
  const more = Array.from({ length: 100 }, (_, index) => ({ slot: 100 + index, value: index % 5 }));
  update(ranking, of, more);
  const rankedGrown = ranking.work.allocatedBytes;
  // At least order and ranks (4 bytes each) for 200 ranked players.
  expect(rankedGrown - warm).toBeGreaterThanOrEqual(200 * 8);
  expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));

  // Slots grow past every array's room: 200 to 500.
  join(of, 300);
  update(
    ranking,
    of,
    Array.from({ length: 300 }, (_, index) => ({ slot: 200 + index, value: index % 11 })),
    25,
  );
  // At least values and ranked (8 + 1 bytes a slot) for 500 slots.
  expect(ranking.work.allocatedBytes - rankedGrown).toBeGreaterThanOrEqual(500 * 9);
  expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));

  // The spare (from before the growth) grows on the next update; after that, nothing new.
  update(ranking, of, [{ slot: 450, value: 3 }]);
  const regrown = ranking.work.allocatedBytes;
  for (let round = 0; round < 10; round++)
    update(ranking, of, [{ slot: (round * 37) % 500, value: round % 4 === 0 ? null : round }], 10);
  expect(ranking.work.allocatedBytes).toBe(regrown);
  expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));

  // A few players new to the server fit in the room left: no allocation.
  join(of, 5);
  update(
    ranking,
    of,
    Array.from({ length: 5 }, (_, index) => ({ slot: 500 + index, value: 20 })),
    2,
  );
  update(ranking, of, [{ slot: 502, value: 21 }]);
  expect(ranking.work.allocatedBytes).toBe(regrown);
  // After slots 1 and 2 (50): 502 (21), then the ties at 20 by name (P0_504, P3_500, P4_501, P6_503).
  const top = answers(ranking).slice(2, 7);
  expect(top.map(([slot]) => slot)).toEqual([502, 504, 500, 501, 503]);
  expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));
});

test('two overlapping updates (stepped, or one stepped and one in one go) each answer as built from scratch from the state they started from', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 40, maxLength: 40 }),
      fc.boolean(),
      changesArbitrary(40, 8),
      changesArbitrary(40, 8),
      changesArbitrary(40, 4),
      fc.integer({ min: 1, max: 5 }),
      fc.boolean(),
      fc.array(fc.boolean(), { maxLength: 120 }),
      (initial, ascending, changesA, changesB, changesC, step, secondInOneGo, schedule) => {
        const of = league(40);
        const ranking = rankFirst(of, ascending, [...initial.keys()], (slot) => initial[slot]!);
        // Warm: the first update below claims a real spare and the scratch.
        update(ranking, of, [{ slot: 5, value: 2 }]);
        update(ranking, of, [{ slot: 6, value: 3 }], 3);
        /** The state of the last install: what an update starting now starts from. */
        let installed = of.values;
        const runs = [changesA, changesB].map((changes) => ({
          changes,
          steps: ranking.updateSteps(changes, of.slots.size, step),
          start: null as Map<number, number> | null,
          done: false,
        }));
        const advance = (run: (typeof runs)[number]) => {
          run.start ??= installed;
          if (!run.steps.next().done) return;
          run.done = true;
          installed = applied(run.start, run.changes);
          expect(answers(ranking)).toEqual(fromScratch(of, ascending, installed));
        };
        const [first, second] = runs as [(typeof runs)[number], (typeof runs)[number]];
        // The first starts alone, so it is the one holding the spare and the scratch.
        advance(first);
        for (const pick of schedule) {
          if (first.done) break;
          if (!pick) advance(first);
          else if (secondInOneGo && !second.done) {
            // The directory's synchronous path, between two steps of a stepped update.
            second.start = installed;
            ranking.update(second.changes, of.slots.size);
            second.done = true;
            installed = applied(second.start, second.changes);
            expect(answers(ranking)).toEqual(fromScratch(of, ascending, installed));
          } else if (!second.done) advance(second);
        }
        while (!first.done) advance(first);
        while (!second.done) advance(second);
        // Alone again: the spare and the scratch must not have been spoiled by the overlap.
        of.values = installed;
        const later: [RankChange[], number | undefined][] = [
          [changesC, undefined],
          [[{ slot: 7, value: 1 }], 2],
          [changesC.map(({ slot }) => ({ slot, value: 4 })), undefined],
          [[{ slot: 7, value: null }], 3],
        ];
        for (const [changes, laterStep] of later) {
          update(ranking, of, changes, laterStep);
          expect(answers(ranking)).toEqual(fromScratch(of, ascending, of.values));
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('a stepped update stopped before its end leaves the answers as they were and releases the arrays it claimed', () => {
  const of = league(60);
  const ranking = rankFirst(of, true, [...Array(60).keys()], (slot) => slot % 4);
  update(ranking, of, [{ slot: 1, value: 3 }]);
  update(ranking, of, [{ slot: 2, value: 3 }]);
  const before = answers(ranking);
  const steps = ranking.updateSteps(
    [
      { slot: 10, value: null },
      { slot: 20, value: 0 },
    ],
    of.slots.size,
    4,
  );
  steps.next();
  steps.next();
  steps.return();
  expect(answers(ranking)).toEqual(before);
  const allocated = ranking.work.allocatedBytes;
  for (let round = 0; round < 6; round++) update(ranking, of, [{ slot: 40 + round, value: round }], 5);
  expect(ranking.work.allocatedBytes).toBe(allocated);
  // Slots 10 and 20 were marked for removal by the stopped update: still ranked as before.
  expect(answers(ranking)).toEqual(fromScratch(of, true, of.values));
  expect(answers(ranking).some(([slot]) => slot === 10)).toBe(true);
});

test('a rebuild of a warm ranking writes into the spare too: it allocates only its sort inputs', () => {
  const of = league(300);
  const ranking = rankFirst(of, false, [...Array(300).keys()], (slot) => slot % 13);
  update(ranking, of, [{ slot: 1, value: 40 }]);
  update(ranking, of, [{ slot: 2, value: 40 }]);
  // Fewer players than before, other values: nothing of the previous ranking may remain.
  of.values = new Map(Array.from({ length: 120 }, (_, index) => [index * 2, index % 5]));
  const before = ranking.work.allocatedBytes;
  ranking.rebuild(rankedValues(of.values), of.slots.size);
  // Slots (4 bytes), values to sort (8) and packed keys (8) for each of the 120 players.
  expect(ranking.work.allocatedBytes - before).toBe(120 * 20);
  expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));
  for (const slot of [1, 4, 7]) {
    update(ranking, of, [{ slot, value: slot }], 2);
    expect(answers(ranking)).toEqual(fromScratch(of, false, of.values));
  }
});

test('the frozen name order is copied once per move of the order, not once per ranking update', () => {
  const of = league(50);
  const ranking = rankFirst(of, false, [1, 2, 3, 4], (slot) => slot * 10);
  const before = of.roster.frozen();
  ranking.update([{ slot: 2, value: 99 }], of.slots.size);
  ranking.update([{ slot: 3, value: 5 }], of.slots.size);
  // Same names, same order: every update tied by the one copy.
  expect(of.roster.frozen()).toBe(before);
  const position = before.positions[7]!;
  // A rename moves the order: a new copy, and the old one still holds the old positions.
  of.roster.update([['uuid-7', 'zzz-last']]);
  const after = of.roster.frozen();
  expect(after).not.toBe(before);
  expect(before.positions[7]).toBe(position);
  expect(after.positions[7]).toBe(of.roster.size - 1);
});
