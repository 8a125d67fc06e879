import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'game-stats',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Index snapshots of the tests' server folders go here, not to the user's cache folder.
    env: { XDG_CACHE_HOME: path.join(os.tmpdir(), 'game-stats-test-cache') },
  },
});
