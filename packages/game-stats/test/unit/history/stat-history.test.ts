/**
 * @module Tests: the history's files restore exactly the records each snapshot saw (delta files,
 * a key that disappeared), and the retention policy drops the oldest snapshots by size and by age,
 * rewriting the new oldest in full, on disk and in memory.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { StatHistory, type StatHistoryOptions } from '../../../src/history/stat-history.js';
import { type CompactStats, packStats, unpackStats } from '../../../src/index/compact-stats.js';
import type { PlayerIndex } from '../../../src/index/player-index.js';
import { StatKeyTable } from '../../../src/index/stat-key-table.js';
import type { StatDump } from '../../../src/stats/stats-file.js';
import { turnCounter } from '../../support/turn-counter.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'game-stats-history-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The part of the index the history reads. */
function fakeIndex() {
  const keys = new StatKeyTable();
  const players = new Map<string, { uuid: string; stats: CompactStats | null }>();
  const index = { keys, players, generation: 0 };
  const set = (uuid: string, dump: StatDump) => players.set(uuid, { uuid, stats: packStats([dump], keys) });
  return { index: index as unknown as PlayerIndex, keys, set };
}

const options = (overrides: Partial<StatHistoryOptions> = {}): StatHistoryOptions => ({
  folder,
  intervalSeconds: 3600,
  retentionMs: 86_400_000,
  maxBytes: 1024 * 1024,
  ...overrides,
});
const dumpAt = (history: StatHistory, keys: StatKeyTable, uuid: string, time: number) => {
  const record = history.recordAt(uuid, time);
  return record ? unpackStats(record, keys) : null;
};
const files = async () => (await readdir(folder)).filter((name) => name.endsWith('.json.gz')).length;

test('a restart restores every snapshot as it was taken, from a full file and deltas', async () => {
  const { index, keys, set } = fakeIndex();
  const states: StatDump[] = [
    { 'minecraft:custom': { 'minecraft:deaths': 1, 'minecraft:jump': 5 } },
    {
      'minecraft:custom': { 'minecraft:deaths': 4, 'minecraft:jump': 5 },
      'minecraft:mined': { 'minecraft:stone': 2 },
    },
    // A key gone (a file rewritten by a tool): restored as absent, not as its former value.
    { 'minecraft:custom': { 'minecraft:deaths': 9 } },
  ];
  const history = new StatHistory(index, options());
  set('b', { 'minecraft:custom': { 'minecraft:deaths': 7 } });
  const times: number[] = [];
  for (const state of states) {
    set('a', state);
    await history.snapshot();
    times.push(history.windowStart(Number.MAX_SAFE_INTEGER).from);
  }
  expect(await files()).toBe(3);

  const restarted = fakeIndex();
  const restored = new StatHistory(restarted.index, options());
  await restored.start();
  await restored.idle();
  restored.close();
  for (const [at, state] of states.entries()) {
    expect(dumpAt(history, keys, 'a', times[at]!)).toEqual(state);
    expect(dumpAt(restored, restarted.keys, 'a', times[at]!)).toEqual(state);
    expect(dumpAt(restored, restarted.keys, 'b', times[at]!)).toEqual({
      'minecraft:custom': { 'minecraft:deaths': 7 },
    });
  }
  expect(restored.status().first_at).toBe(history.status().first_at);
  expect(dumpAt(restored, restarted.keys, 'a', times[0]! - 1)).toBeNull();
});

test('over the size bound, the oldest snapshots go and the oldest kept one becomes full', async () => {
  const { index, keys, set } = fakeIndex();
  const history = new StatHistory(index, options({ maxBytes: 1 }));
  for (let deaths = 1; deaths <= 3; deaths++) {
    set('a', { 'minecraft:custom': { 'minecraft:deaths': deaths } });
    if (deaths === 1) set('b', { 'minecraft:custom': { 'minecraft:jump': 3 } });
    await history.snapshot();
  }
  expect(history.status().snapshots).toBe(1);
  expect(await files()).toBe(1);
  const last = history.windowStart(Number.MAX_SAFE_INTEGER).from;
  expect(history.windowStart(last - 1)).toEqual({ from: last, complete: false });
  // b moved only in the first (dropped) snapshot: the new oldest holds b's values in full.
  const restarted = fakeIndex();
  const restored = new StatHistory(restarted.index, options());
  await restored.start();
  await restored.idle();
  restored.close();
  expect(dumpAt(restored, restarted.keys, 'b', last)).toEqual({
    'minecraft:custom': { 'minecraft:jump': 3 },
  });
  expect(dumpAt(restored, restarted.keys, 'a', last)).toEqual({
    'minecraft:custom': { 'minecraft:deaths': 3 },
  });
  expect(dumpAt(history, keys, 'a', last)).toEqual({ 'minecraft:custom': { 'minecraft:deaths': 3 } });
});

test('past the retention age, snapshots are dropped, the newest always kept', async () => {
  const { index, set } = fakeIndex();
  const history = new StatHistory(index, options({ retentionMs: 0 }));
  for (let deaths = 1; deaths <= 3; deaths++) {
    set('a', { 'minecraft:custom': { 'minecraft:deaths': deaths } });
    await history.snapshot();
  }
  expect(history.status().snapshots).toBe(1);
  expect(await files()).toBe(1);
});

test('at 10,000 players a snapshot and the full rewrite of the oldest one run in steps of 2,000 players', async () => {
  const { index, set } = fakeIndex();
  for (let player = 0; player < 10_000; player++)
    set(`p${player}`, { 'minecraft:custom': { 'minecraft:deaths': player + 1 } });
  // In memory: no file is written, so only the history's own steps give the event loop turns.
  const history = new StatHistory(index, options({ folder: undefined, retentionMs: 1 }));
  let stop = turnCounter();
  await history.snapshot();
  expect(stop()).toBeGreaterThanOrEqual(4);
  expect(history.status().snapshots).toBe(1);
  const moveEveryone = async (more: number) => {
    for (let player = 0; player < 10_000; player++)
      set(`p${player}`, { 'minecraft:custom': { 'minecraft:deaths': player + more } });
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  await moveEveryone(2);
  await history.snapshot();
  await moveEveryone(3);
  // This one drops the first (the second is past the retention age too) and rewrites the second
  // in full: two loops over every player.
  stop = turnCounter();
  await history.snapshot();
  expect(stop()).toBeGreaterThanOrEqual(8);
  expect(history.status().snapshots).toBe(2);
  const oldest = Date.parse(history.status().first_at!);
  expect(unpackStats(history.recordAt('p9999', oldest)!, index.keys)).toEqual({
    'minecraft:custom': { 'minecraft:deaths': 10_001 },
  });
  expect(history.windowStart(oldest - 1).complete).toBe(false);
});

test('the restore reads in steps and says when it is done; the first snapshot is in use then', async () => {
  const { index, set } = fakeIndex();
  for (let player = 0; player < 10_000; player++)
    set(`p${player}`, { 'minecraft:custom': { 'minecraft:deaths': player + 1 } });
  const history = new StatHistory(index, options());
  await history.snapshot();
  const restarted = fakeIndex();
  const restored = new StatHistory(restarted.index, options());
  const steps = vi.spyOn(globalThis, 'setImmediate');
  const started = restored.start();
  expect(restored.whenReady()).toBe(started);
  await started;
  // Two loops over 10,000 players (the file's records, then the shares with the index).
  expect(steps.mock.calls.length).toBeGreaterThanOrEqual(8);
  steps.mockRestore();
  expect(restored.whenReady()).toBeUndefined();
  expect(restored.status().snapshots).toBe(2);
  await restored.idle();
  restored.close();
  const first = restored.status().first_at!;
  expect(unpackStats(restored.recordAt('p4321', Date.parse(first))!, restarted.keys)).toEqual({
    'minecraft:custom': { 'minecraft:deaths': 4322 },
  });
});
