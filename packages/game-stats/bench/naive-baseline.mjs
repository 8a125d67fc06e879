/**
 * @module The naive approach the original plugin takes: on every leaderboard request, list the
 * statistics folder, read and parse every file, compute the value and sort. Used as the
 * baseline the benchmark compares the in-memory index with.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One leaderboard "request": returns the top `limit` entries of a key, reading every file. */
export async function naiveLeaderboard(serverDir, category, key, limit = 25) {
  const rows = [];
  for (const folder of [
    path.join(serverDir, 'world', 'stats'),
    path.join(serverDir, 'world', 'players', 'stats'),
  ]) {
    const names = await readdir(folder).catch(() => []);
    for (const name of names) {
      try {
        const parsed = JSON.parse(await readFile(path.join(folder, name), 'utf8'));
        rows.push({ uuid: name.slice(0, -5), value: parsed.stats?.[category]?.[key] ?? 0 });
      } catch {
        // skipped, as the plugin does
      }
    }
  }
  rows.sort((a, b) => b.value - a.value);
  return rows.slice(0, limit);
}
