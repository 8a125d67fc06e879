import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Index snapshots of the tests' server folders go here, not to the user's cache folder.
const snapshotCache = path.join(os.tmpdir(), `game-stats-test-cache-${process.pid}`);
process.env.GAME_STATS_TEST_CACHE = snapshotCache;

export default defineConfig({
  test: {
    name: 'game-stats',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { XDG_CACHE_HOME: snapshotCache },
    globalSetup: ['test/support/snapshot-cache.ts'],
  },
});
