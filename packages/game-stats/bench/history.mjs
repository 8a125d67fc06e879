/**
 * @module Benchmark of the history behind windowed leaderboards at N players (default 100,000):
 * a week of hourly snapshots (168) on top of the first, full one, with a share of the players
 * moving each hour; bytes on disk, memory retained, time per snapshot; then a windowed
 * leaderboard against the plain one (first ranking, and pages of a ranked leaderboard).
 *
 *   node --expose-gc bench/history.mjs [players] [moving-share] [changed-keys]
 *
 * Activity is simulated in memory (each moving player's record replaced by one with
 * `changed-keys` values raised, as a re-read of their file would), not by rewriting files: the
 * reading of changed files is measured by the live benchmark.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createStatsApi } from '../dist/index.js';
import { benchFolder } from './bench-folder.mjs';

const players = Number(process.argv[2] ?? 100_000);
const movingShare = Number(process.argv[3] ?? 0.05);
const changedKeys = Number(process.argv[4] ?? 30);
const hours = 168;

const gc = globalThis.gc ?? (() => {});
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const memory = () => {
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed + usage.arrayBuffers };
};

const { dir } = await benchFolder({ players });
const cache = await mkdtemp(path.join(os.tmpdir(), 'game-stats-history-bench-'));
const api = await createStatsApi({
  config: {
    'server-dir': dir,
    index: { 'snapshot-file': path.join(cache, 'index.snapshot'), watch: false, 'rescan-seconds': 0 },
    'history-seconds': 86_400,
    'rate-limit': { enabled: false },
    compression: { enabled: false },
  },
});
// The history is restored and the first snapshot taken after createStatsApi resolves (as after
// the listening line); its file is written after that.
await api.history.whenReady();
await api.history.idle();
const baseline = memory();
const first = api.history.status();
console.log(`${players} players: first (full) snapshot ${mb(first.bytes)} MB`);

// Deterministic choice of movers (xorshift).
let seed = 2026;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const uuids = [...api.index.players.keys()];
let snapshotMs = 0;
let longest = 0;
let middle = 0;
for (let hour = 0; hour < hours; hour++) {
  for (let moved = 0; moved < players * movingShare; moved++) {
    const uuid = uuids[Math.floor(random() * uuids.length)];
    const player = api.index.players.get(uuid);
    if (!player?.stats) continue;
    const { keyIds, values } = player.stats;
    const raised = { keyIds: keyIds.slice(), values: values.slice() };
    for (let change = 0; change < changedKeys; change++)
      raised.values[Math.floor(random() * values.length)] += 1 + Math.floor(random() * 50);
    player.stats = raised;
    api.index.journal.record(uuid);
  }
  api.index.generation++;
  const started = performance.now();
  await api.history.snapshot();
  const took = performance.now() - started;
  snapshotMs += took;
  longest = Math.max(longest, took);
  if (hour === hours / 2) middle = Date.now();
}
const week = api.history.status();
const after = memory();
console.log(
  `after ${hours} hourly snapshots (${(movingShare * 100).toFixed(0)} % of players moving, ${changedKeys} keys each): ` +
    `${week.snapshots} snapshots, ${mb(week.bytes)} MB on disk; ` +
    `delta snapshot mean ${(snapshotMs / hours).toFixed(0)} ms, longest ${longest.toFixed(0)} ms`,
);
console.log(
  `memory: RSS ${mb(baseline.rss)} -> ${mb(after.rss)} MB, heap+buffers ${mb(baseline.heap)} -> ${mb(after.heap)} MB`,
);

async function request(target) {
  const response = await api.fetch(new Request(`http://bench${target}`));
  if (response.status !== 200) throw new Error(`${target}: ${response.status}`);
  await response.text();
}

async function measure(label, query) {
  const stat = 'mined.stone';
  let started = performance.now();
  await request(`/api/leaderboard/${stat}?limit=25${query}`);
  const cold = performance.now() - started;
  const pages = 2_000;
  started = performance.now();
  for (let page = 1; page <= pages; page++)
    await request(`/api/leaderboard/${stat}?limit=25&page=${page}${query}`);
  const perPage = (performance.now() - started) / pages;
  console.log(
    `${label}: first ranking ${cold.toFixed(0)} ms, then ${(perPage * 1000).toFixed(0)} µs per page`,
  );
  return { cold, perPage };
}

const plain = await measure('plain leaderboard', '');
const windowed = await measure(
  'windowed leaderboard (since the middle of the week)',
  `&since=${new Date(middle).toISOString()}`,
);
console.log(
  `windowed / plain: first ranking ${(windowed.cold / plain.cold).toFixed(2)}x, pages ${(windowed.perPage / plain.perPage).toFixed(2)}x`,
);
api.close();
await rm(cache, { recursive: true, force: true });
