/**
 * @module vitest global set-up: the index snapshots the tests' APIs and bins write go to one
 * temporary cache folder per run (see vitest.config.ts), removed when the run ends.
 */
import { rm } from 'node:fs/promises';

export async function teardown(): Promise<void> {
  const folder = process.env.GAME_STATS_TEST_CACHE;
  if (folder) await rm(folder, { recursive: true, force: true });
}
