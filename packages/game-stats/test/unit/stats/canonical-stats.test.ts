/**
 * @module Tests: the first build's fast path takes exactly what `parseStatsFile` keeps, in the
 * same order, or declines and hands out no id, on game files, generated content and hostile
 * edits of game files; and it hands out the same local key ids as a map of (category, key) did.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CanonicalStatsReader } from '../../../src/stats/canonical-stats.js';
import { hashName } from '../../../src/stats/name-table.js';
import { parseStatsFile } from '../../../src/stats/stats-file.js';

type Entry = [category: string, key: string, value: number];

/** One read, its entries named back through `keyNames`. */
function readAll(reader: CanonicalStatsReader, text: string): { taken: boolean; read: Entry[] } {
  const known = reader.keyNames.length;
  const taken = reader.read(text);
  // A declined file hands out no id: the fallback decides which keys the file holds.
  if (!taken) expect(reader.keyNames.length).toBe(known);
  const read: Entry[] = [];
  for (let entry = 0; taken && entry < reader.count; entry++) {
    const [category, key] = reader.keyNames[reader.ids[entry]!]!.split('\u0000') as [string, string];
    read.push([category, key, reader.values[entry]!]);
  }
  return { taken, read };
}

/** What parseStatsFile keeps, as the list of entries in its categories' and keys' order. */
function keptByParse(text: string): Entry[] | null {
  const parsed = parseStatsFile(text);
  if (!parsed.ok) return null;
  return Object.entries(parsed.stats).flatMap(([category, entries]) =>
    Object.entries(entries).map(([key, value]): Entry => [category, key, value]),
  );
}

/** The fast path's contract, checked on one text (with a reader that may know keys already). */
function expectSameAsParse(text: string, reader = new CanonicalStatsReader()) {
  const { taken, read } = readAll(reader, text);
  if (taken) expect(read).toEqual(keptByParse(text));
}

const key = fc.constantFrom('minecraft:stone', 'minecraft:deaths', 'mod:thing', 'stone', 'a.b', '__proto__');
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
  fc.constantFrom(0, -0, 2 ** 53 + 2, 1e300, 0.000001, '12', null, true),
);

/** A file the game could write: namespaced categories and keys, integer values. */
const gameFile = fc
  .dictionary(
    fc.constantFrom('minecraft:mined', 'minecraft:custom', 'minecraft:killed_by', 'mod:things'),
    fc.dictionary(
      fc.constantFrom('minecraft:stone', 'minecraft:deaths', 'minecraft:jump', 'mod:x'),
      fc.integer({ min: -3, max: 2 ** 40 }),
    ),
  )
  .map((stats) => JSON.stringify({ stats, DataVersion: 4440 }));

/** Insertions a hostile or unusual file could hold at any point of a game file. */
const edit = fc.constantFrom(
  ' ',
  '\n\t',
  '\\"',
  '\\u0041',
  '"minecraft:stone":1,',
  '"minecraft:stone":2,"minecraft:stone":3,',
  '"minecraft:custom":{},',
  '"stats":{},',
  '1e3',
  '01',
  '-0',
  '.5',
  '1.',
  '+1',
  '1e400',
  '-',
  '"',
  '{',
  '}',
  ',',
  ':',
  '\u0001',
  '\uFEFF',
  'null',
  '[]',
  '"x":[1,2],',
);

/** A hostile edit of a game file: the insertions at positions taken modulo its length. */
const editedGameFile = fc
  .tuple(gameFile, fc.array(fc.tuple(fc.nat(), edit), { maxLength: 3 }))
  .map(([text, edits]) => {
    let edited = text;
    for (const [position, insertion] of edits) {
      const at = position % (edited.length + 1);
      edited = edited.slice(0, at) + insertion + edited.slice(at);
    }
    return edited;
  });

/** Generated content, game-like or not. */
const generatedFile = fc.oneof(
  fc
    .oneof(
      fc.record({ stats: fc.dictionary(category, fc.oneof(fc.dictionary(key, value), fc.constant([]))) }),
      fc.record({ 'stat.deaths': fc.integer() }),
      fc.constant('not an object'),
    )
    .map((content) => JSON.stringify(content)),
  fc.constantFrom('', '{"stats":'),
);

type IdsAndValues = [id: number, value: number][];

/** What the read worker hands the main thread: ids by `read`, or by `idOf` after parseStatsFile. */
function workerIds(texts: string[]): { files: IdsAndValues[]; names: string[] } {
  const reader = new CanonicalStatsReader();
  const files = texts.map((text): IdsAndValues => {
    if (reader.read(text))
      return Array.from({ length: reader.count }, (_, entry) => [reader.ids[entry]!, reader.values[entry]!]);
    const parsed = parseStatsFile(text);
    if (!parsed.ok) return [];
    return Object.entries(parsed.stats).flatMap(([category, entries]) =>
      Object.entries(entries).map(([key, value]): [number, number] => [reader.idOf(category, key), value]),
    );
  });
  return { files, names: reader.keyNames };
}

/** The ids as one map from `category\0key` handed them out: per entry kept, in order. */
function mapIds(texts: string[]): { files: IdsAndValues[]; names: string[] } {
  const ids = new Map<string, number>();
  const files = texts.map((text) =>
    (keptByParse(text) ?? []).map(([category, key, value]): [number, number] => {
      const name = `${category}\u0000${key}`;
      if (!ids.has(name)) ids.set(name, ids.size);
      return [ids.get(name)!, value];
    }),
  );
  return { files, names: [...ids.keys()] };
}

describe('CanonicalStatsReader', () => {
  test('takes the files the game writes, in their order', () => {
    const text =
      '{"stats":{"minecraft:custom":{"minecraft:play_time":4618136,"minecraft:deaths":113,"minecraft:jump":0},' +
      '"minecraft:mined":{"minecraft:stone":9007199254740993,"minecraft:dirt":2.7,"minecraft:sand":-0.5}},' +
      '"DataVersion":4440}';
    expect(readAll(new CanonicalStatsReader(), text)).toEqual({
      taken: true,
      read: [
        ['minecraft:custom', 'minecraft:play_time', 4618136],
        ['minecraft:custom', 'minecraft:deaths', 113],
        // Past 15 digits the number is read as JSON.parse reads it (rounded to a double).
        ['minecraft:mined', 'minecraft:stone', 9007199254740992],
        ['minecraft:mined', 'minecraft:dirt', 2],
        // Non-zero, so kept, but truncated to 0 (not -0, as parseStatsFile adds it to 0).
        ['minecraft:mined', 'minecraft:sand', 0],
      ],
    });
  });

  test('declines what it cannot take for certain, handing out no id', () => {
    const reader = new CanonicalStatsReader();
    for (const text of [
      '',
      '{}',
      '{"stats":{}',
      '{"stats":{"minecraft:custom":{"minecraft:jump":1,"minecraft:jump":2}}}',
      '{"stats":{"minecraft:custom":{"minecraft:jump":1}},"stats":{}}',
      '{"stats":{"minecraft:custom":{},"minecraft:custom":{"minecraft:jump":1}}}',
      '{"stats":{"minecraft:custom":{"minecraft:jump":1},"minecraft:custom":{"minecraft:fall":1}}}',
      '{"stats":{"minecraft:custom":{"minecraft:jump":"1"}}}',
      '{"stats":{"minecraft:custom":{"jump":1}}}',
      '{"stats":{"custom":{"minecraft:jump":1}}}',
      '{"stats":{"minecraft:custom":{"minecraft:ju\\u006dp":1}}}',
      '{"stats":{"minecraft:custom":{"minecraft:jump":01}}}',
      '{"stats":{"minecraft:custom":[]}}',
      '{"stats":{},"DataVersion":"4440"}',
      '{"stats":{}} x',
    ]) {
      expect(readAll(reader, text), text).toEqual({ taken: false, read: [] });
    }
    expect(reader.keyNames).toEqual([]);
  });

  test('hands out ids in the order pairs are first kept: one per pair, per category', () => {
    const reader = new CanonicalStatsReader();
    const ids = () => [...reader.ids.subarray(0, reader.count)];
    expect(
      reader.read(
        '{"stats":{"minecraft:custom":{"minecraft:jump":3,"minecraft:stone":0,"minecraft:deaths":1},' +
          '"minecraft:mined":{"minecraft:jump":5}}}',
      ),
    ).toBe(true);
    expect(ids()).toEqual([0, 1, 2]);
    expect(reader.keyNames).toEqual([
      'minecraft:custom\u0000minecraft:jump',
      'minecraft:custom\u0000minecraft:deaths',
      // The same key name in another category is another pair.
      'minecraft:mined\u0000minecraft:jump',
    ]);
    // Seen again, in another order: the same ids; a key first kept now (its value was 0) gets the next.
    expect(
      reader.read(
        '{"stats":{"minecraft:mined":{"minecraft:jump":2},' +
          '"minecraft:custom":{"minecraft:deaths":4,"minecraft:stone":7,"minecraft:jump":1}}}',
      ),
    ).toBe(true);
    expect(ids()).toEqual([2, 1, 3, 0]);
    expect(reader.keyNames[3]).toBe('minecraft:custom\u0000minecraft:stone');
    // The fallback path shares the ids, both ways.
    expect(reader.idOf('minecraft:mined', 'minecraft:jump')).toBe(2);
    expect(reader.idOf('custom', 'jump')).toBe(4);
    expect(reader.idOf('minecraft:mined', 'minecraft:stone')).toBe(5);
    expect(reader.read('{"stats":{"minecraft:mined":{"minecraft:stone":1,"minecraft:dirt":1}}}')).toBe(true);
    expect(ids()).toEqual([5, 6]);
    expect(reader.keyNames.slice(4)).toEqual([
      'custom\u0000jump',
      'minecraft:mined\u0000minecraft:stone',
      'minecraft:mined\u0000minecraft:dirt',
    ]);
  });

  test('keeps its ids past the initial sizes of its tables and buffers', () => {
    // 100 categories of 30 keys: more categories, keys and entries than the tables start with.
    const categories = Array.from({ length: 100 }, (_, category) => `mod:c${category}`);
    const keys = Array.from({ length: 30 }, (_, key) => `mod:k${key}`);
    const file = (order: number[]) =>
      JSON.stringify({
        stats: Object.fromEntries(
          categories.map((category) => [
            category,
            Object.fromEntries(order.map((key, place) => [keys[key], place + 1])),
          ]),
        ),
      });
    const forward = keys.map((_, key) => key);
    const backward = [...forward].reverse();
    const texts = [file(forward), file(backward), file(forward)];
    expect(workerIds(texts)).toEqual(mapIds(texts));
    // Duplicates are still declined among many categories.
    const reader = new CanonicalStatsReader();
    expect(reader.read(texts[0]!)).toBe(true);
    expect(reader.read('{"stats":{"mod:c99":{"mod:k1":1},"mod:c99":{"mod:k2":1}}}')).toBe(false);
  });

  test('tells apart names whose hashes collide', () => {
    // Found by search: same length, same 32-bit hash.
    const [first, second] = ['minecraft:k149599', 'minecraft:k312382'];
    expect(hashName(second)).toBe(hashName(first));
    const reader = new CanonicalStatsReader();
    const text = `{"stats":{"minecraft:custom":{"${first}":1,"${second}":2}}}`;
    expect(readAll(reader, text).read).toEqual([
      ['minecraft:custom', first, 1],
      ['minecraft:custom', second, 2],
    ]);
    expect(readAll(reader, text).read).toEqual([
      ['minecraft:custom', first, 1],
      ['minecraft:custom', second, 2],
    ]);
    expect(reader.idOf('minecraft:custom', second)).toBe(1);
  });

  test('reads exactly what parseStatsFile keeps, or declines: generated content', () => {
    const reader = new CanonicalStatsReader();
    fc.assert(fc.property(generatedFile, (text) => expectSameAsParse(text, reader)));
  });

  test('reads exactly what parseStatsFile keeps, or declines: hostile edits of game files', () => {
    const reader = new CanonicalStatsReader();
    fc.assert(
      fc.property(editedGameFile, (text) => expectSameAsParse(text, reader)),
      { numRuns: 2_000 },
    );
  });

  test('game files themselves are always taken', () => {
    fc.assert(
      fc.property(gameFile, (text) => {
        const reader = new CanonicalStatsReader();
        expect(readAll(reader, text).taken).toBe(true);
        expectSameAsParse(text, reader);
      }),
    );
  });

  test('with the fallback, hands out the same ids and values as one map per pair did', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(gameFile, editedGameFile, generatedFile), { minLength: 1, maxLength: 8 }),
        (texts) => {
          expect(workerIds(texts)).toEqual(mapIds(texts));
        },
      ),
      { numRuns: 500 },
    );
  });
});
