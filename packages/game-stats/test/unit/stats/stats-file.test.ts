/**
 * @module Tests: Lenient reading of modern, legacy and broken statistics files.
 */
import { describe, expect, test } from 'vitest';
import { parseStatsFile } from '../../../src/stats/stats-file.js';

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

  test('pre-1.13 flat keys get the names the 1.13 upgrade gives them', () => {
    const result = parseStatsFile(
      JSON.stringify({
        'stat.playOneMinute': 1200,
        'stat.walkOneCm': 50,
        'stat.mineBlock.minecraft.stone': 9,
        'stat.killEntity.Zombie': 2,
        'stat.killEntity.LavaSlime': 1,
        'stat.chestOpened': 1,
        'stat.treasureFished': 4,
        'achievement.openInventory': 1,
      }),
    );
    expect(result).toEqual({
      ok: true,
      legacy: true,
      dataVersion: null,
      stats: {
        'minecraft:custom': {
          'minecraft:play_one_minute': 1200,
          'minecraft:walk_one_cm': 50,
          'minecraft:open_chest': 1,
        },
        'minecraft:mined': { 'minecraft:stone': 9 },
        'minecraft:killed': { 'minecraft:zombie': 2, 'minecraft:magma_cube': 1 },
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
