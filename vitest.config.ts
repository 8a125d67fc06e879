import { defineConfig } from 'vitest/config';

// One run over every package: each package folder carries its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'scripts'],
    // Vitest's default on a 2-core machine (CI's) is one worker: most files wait on child
    // processes, browsers and timers rather than compute, so two at a time nearly halve the run.
    maxWorkers: 2,
  },
});
