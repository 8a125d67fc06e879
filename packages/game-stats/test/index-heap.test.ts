/**
 * @module Tests: what the index keeps alive. Every full garbage collection marks every live heap
 * object, so a built index must not hold per-file leftovers of the build: the list of located
 * files (an object and a full path string per file), or a player's UUID as a slice of its file's
 * path (a slice keeps the whole parent string alive). Checked on a heap snapshot of this process
 * after a build with the snapshot timer running: no statistics file's path is a string in it.
 */
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapSnapshot } from 'node:v8';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createStatsApi, type StatsApi } from '../src/index.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';

let server: GeneratedServer;
let api: StatsApi | undefined;

beforeAll(async () => {
  // No corrupt or legacy file: those paths are kept on purpose (each problem is logged once).
  server = await createServerFolder({ players: 60, seed: 88, newLayoutShare: 0.4, corrupt: 0, legacy: 0 });
});

afterAll(async () => {
  api?.close();
  await server.remove();
});

/** Every string in this process's heap (the snapshot collects garbage first). */
async function heapStrings(): Promise<Set<string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer);
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { strings: string[] };
  return new Set(snapshot.strings);
}

test('a built index keeps no statistics file path alive', { timeout: 60_000 }, async () => {
  api = await createStatsApi({
    config: {
      'server-dir': server.dir,
      index: { 'snapshot-file': path.join(tmpdir(), `game-stats-heap-${process.pid}.snapshot`) },
    },
    live: false,
  });
  await api.index.saveSnapshot();
  const leaderboard = await api.fetch(new Request('http://host/api/leaderboard/deaths?limit=100'));
  expect(leaderboard.status).toBe(200);
  expect(api.index.players.size).toBe(60);

  const strings = await heapStrings();
  // The paths are built only now, after the snapshot: the test itself held none of them.
  const folders = [
    path.join(server.dir, 'world', 'stats'),
    path.join(server.dir, 'world', 'players', 'stats'),
  ];
  const paths: string[] = [];
  for (const folder of folders)
    for (const name of await readdir(folder)) if (name.endsWith('.json')) paths.push(path.join(folder, name));
  expect(paths).toHaveLength(60);
  expect(paths.filter((file) => strings.has(file))).toEqual([]);
  // The index does hold every player's UUID (as a string of its own).
  expect(server.players.filter((player) => !strings.has(player.uuid))).toEqual([]);
});
