/**
 * @module Starts the built `readme-cards serve` bin on a free loopback port, as users run it.
 */
import { fileURLToPath } from 'node:url';
import { type RunningBin, startBin as startScript } from '@suite/test-kit';

export type { RunningBin };

const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** `env` is added to the test's own environment; the log level stays at warn. */
export function startBin(env: Record<string, string>): Promise<RunningBin> {
  return startScript(bin, {
    args: ['serve', '--host', '127.0.0.1', '--port', '0'],
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
  });
}
