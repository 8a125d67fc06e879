import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'suite', include: ['*.test.ts'], testTimeout: 120_000 },
});
