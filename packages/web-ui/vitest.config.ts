import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'web-ui', include: ['test/**/*.test.ts'] },
});
