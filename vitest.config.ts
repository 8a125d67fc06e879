import { defineConfig } from 'vitest/config';

// One run over every package: each package folder carries its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'scripts'],
  },
});
