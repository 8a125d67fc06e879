/**
 * @module Tests: Lenient reading of modern, legacy and broken statistics files.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseStatsFile, visitCanonicalStats } from './stats-file.js';

describe('parseStatsFile', () => {
  test('modern nested layout, keys without namespace and dotted ids are normalised; zeros dropped', () => {
    const result = parseStatsFile(
      JSON.stringify({
        stats: {
          'minecraft:custom': { 'minecraft:jump': 3, deaths: 2 },
          mined: { 'minecraft.stone': 4, dirt: 0 },
        },
        DataVersion: 3955,
      }),
    );
    expect(result).toEqual({
      ok: true,
      legacy: false,
      dataVersion: 3955,
      stats: {
        'minecraft:custom': { 'minecraft:jump': 3, 'minecraft:deaths': 2 },
        'minecraft:mined': { 'minecraft:stone': 4 },
      },
    });
  });

  test('pre-1.13 flat keys become modern categories', () => {
    const result = parseStatsFile(
      JSON.stringify({
        'stat.playOneMinute': 1200,
        'stat.walkOneCm': 50,
        'stat.mineBlock.minecraft.stone': 9,
        'stat.killEntity.Zombie': 2,
        'stat.chestOpened': 1,
        'achievement.openInventory': 1,
      }),
    );
    expect(result).toEqual({
      ok: true,
      legacy: true,
      dataVersion: null,
      stats: {
        'minecraft:custom': {
          'minecraft:play_time': 1200,
          'minecraft:walk_one_cm': 50,
          'minecraft:open_chest': 1,
        },
        'minecraft:mined': { 'minecraft:stone': 9 },
        'minecraft:killed': { 'minecraft:zombie': 2 },
      },
    });
  });

  test.each([
    ['', 'empty file'],
    ['   \n', 'empty file'],
    ['{"stats": {"minecraft:cus', 'invalid JSON'],
    ['null', 'not a JSON object'],
    ['[1]', 'not a JSON object'],
    ['{"DataVersion": 1}', 'no "stats" object'],
  ])('%j is rejected with a reason, never thrown', (text, reason) => {
    const result = parseStatsFile(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });

  test('non-numeric and non-finite values are ignored; fractions truncated', () => {
    const result = parseStatsFile(
      '{"stats":{"minecraft:custom":{"minecraft:a":"7","minecraft:b":1.9,"minecraft:c":null}}}',
    );
    expect(result.ok && result.stats).toEqual({ 'minecraft:custom': { 'minecraft:b': 1 } });
  });
});

describe('visitCanonicalStats (the first build fast path)', () => {
  const key = fc.constantFrom(
    'minecraft:stone',
    'minecraft:deaths',
    'mod:thing',
    'stone',
    'a.b',
    '__proto__',
  );
  const category = fc.constantFrom(
    'minecraft:mined',
    'minecraft:custom',
    'mined',
    'custom',
    'minecraft:killed_by',
  );
  const value = fc.oneof(
    fc.integer({ min: -5, max: 1_000_000 }),
    fc.double({ min: -10, max: 10, noNaN: true }),
    fc.constantFrom(0, -0, '12', null, true),
  );
  const file = fc.oneof(
    fc.record({ stats: fc.dictionary(category, fc.oneof(fc.dictionary(key, value), fc.constant([]))) }),
    fc.record({ 'stat.deaths': fc.integer() }),
    fc.constant('not an object'),
  );

  test('visits exactly what parseStatsFile keeps, or declines and visits nothing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          file.map((content) => JSON.stringify(content)),
          fc.constantFrom('', '{"stats":'),
        ),
        (text) => {
          const visited: Record<string, Record<string, number>> = {};
          let calls = 0;
          const taken = visitCanonicalStats(text, (cat, name, amount) => {
            calls++;
            visited[cat] ??= {};
            visited[cat][name] = amount;
          });
          if (!taken) {
            expect(calls).toBe(0);
            return;
          }
          const parsed = parseStatsFile(text);
          expect(parsed.ok).toBe(true);
          if (parsed.ok) expect(visited).toEqual(parsed.stats);
        },
      ),
    );
  });

  test('takes the files the game writes', () => {
    const text = JSON.stringify({
      stats: { 'minecraft:custom': { 'minecraft:deaths': 3, 'minecraft:jump': 0 } },
      DataVersion: 4440,
    });
    const visited: [string, string, number][] = [];
    expect(visitCanonicalStats(text, (...entry) => visited.push(entry))).toBe(true);
    expect(visited).toEqual([['minecraft:custom', 'minecraft:deaths', 3]]);
  });
});
