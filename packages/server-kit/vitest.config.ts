import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'server-kit', include: ['test/**/*.test.ts'] },
});
