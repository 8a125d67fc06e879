/**
 * @module Tests: a snapshot file is read back exactly as written, a few thousand rows between two
 * turns of the event loop; a file laid out otherwise (valid JSON all the same) is still read, and
 * a damaged one is refused.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  type HistoryFile,
  parseHistoryText,
  readHistoryFile,
  writeHistoryFile,
} from '../../../src/history/history-files.js';
import { turnCounter } from '../../support/turn-counter.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'game-stats-history-files-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const time = 1_764_000_000_000;
const snapshot = (players: number): HistoryFile => ({
  time,
  full: true,
  keys: [
    ['minecraft:custom', 'minecraft:deaths'],
    ['minecraft:mined', 'minecraft:stone'],
  ],
  players: Array.from({ length: players }, (_, player) => [
    `0000${player.toString(16).padStart(4, '0')}-0000-4000-8000-000000000000`,
    player % 3 === 0 ? [0, player] : [0, player, 1, player * 7],
  ]),
});

const fileText = async () =>
  gunzipSync(await readFile(path.join(folder, `${time}.json.gz`))).toString('utf8');

test('10,000 rows are read back as written, in steps of 2,000 rows', async () => {
  const written = snapshot(10_000);
  await writeHistoryFile(folder, written);
  const text = await fileText();
  // Only the parse is counted: reading and unzipping the file give the loop turns of their own.
  const stop = turnCounter();
  const parsed = await parseHistoryText(text);
  // Five steps of rows; parsed in one go there would be none.
  expect(stop()).toBeGreaterThanOrEqual(5);
  expect(parsed).toEqual(written);
  expect(parsed).toEqual(JSON.parse(text));
  expect(await readHistoryFile(folder, time)).toEqual(written);
});

test('a snapshot without players, or with fewer than a step, is read back as written', async () => {
  for (const players of [0, 1, 2_000, 2_001]) {
    const written = snapshot(players);
    await writeHistoryFile(folder, written);
    expect(await readHistoryFile(folder, time)).toEqual(written);
  }
});

test('a file laid out otherwise is parsed whole; a damaged one is refused', async () => {
  const written = snapshot(50);
  const target = path.join(folder, `${time}.json.gz`);
  // Pretty-printed, as a person editing the file would leave it.
  await writeFile(target, gzipSync(JSON.stringify(written, null, 2)));
  expect(await readHistoryFile(folder, time)).toEqual(written);

  await writeHistoryFile(folder, written);
  const text = await fileText();
  const cut = text.indexOf(']],', text.length / 2);
  await writeFile(target, gzipSync(`${text.slice(0, cut)}]}`));
  await expect(readHistoryFile(folder, time)).rejects.toThrow();
});
