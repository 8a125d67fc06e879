import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'workspaced',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a browser or a PTY: 1 s (Vitest's default) is too short on a loaded CI machine.
    expect: { poll: { timeout: 15_000 } },
  },
});
