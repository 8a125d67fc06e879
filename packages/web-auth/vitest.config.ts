import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web-auth',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
