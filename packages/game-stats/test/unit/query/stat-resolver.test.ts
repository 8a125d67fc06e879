/**
 * @module Tests: Which leaderboard stat spellings resolve.
 */
import { expect, test } from 'vitest';
import { StatKeyTable } from '../../../src/index/stat-key-table.js';
import { builtinStats, StatResolver } from '../../../src/query/stat-resolver.js';

const keys = new StatKeyTable();
keys.intern('minecraft:mined', 'minecraft:stone');
keys.intern('minecraft:custom', 'minecraft:jump');
keys.intern('minecraft:picked_up', 'minecraft:dirt');
keys.intern('create:stressed', 'create:gear');
const resolver = new StatResolver(keys);

test.each([
  ['playtime', true],
  ['mined.stone', true],
  ['mine.stone', true],
  ['mined.minecraft:stone', true],
  ['minecraft:mined.stone', true],
  ['pickup.dirt', true],
  ['minecraft:mined:minecraft:stone', true],
  ['minecraft:mined:stone', true],
  ['mined:stone', true],
  ['mined', true],
  ['minecraft:mined', true],
  ['jump', true],
  ['create:stressed:create:gear', true],
  ['create:stressed', true],
  ['mined.gold_block', false],
  ['smelted.stone', false],
  ['nonsense', false],
  ['a:b:c:d', false],
])('%s resolves: %s', (stat, known) => {
  expect(resolver.resolve(stat) !== null).toBe(known);
});

test('built-ins resolve even before any file holds their key', () => {
  const empty = new StatResolver(new StatKeyTable());
  expect(builtinStats).toHaveLength(7);
  for (const stat of builtinStats) {
    expect(empty.resolve(stat)?.name).toBe(stat);
  }
});
