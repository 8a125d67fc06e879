/**
 * @module Runs the built `firewarden` bin: `serve` as a child process waited on until its listening
 * line, and the other commands to completion with their output and exit code.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type RunningBin, startBin } from '@suite/test-kit';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export type RunningServer = RunningBin;

/** Environment of every child: no inherited FIREWARDEN_* variable leaks into a test. */
export function childEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('FIREWARDEN_')),
  );
  return { ...base, NODE_ENV: 'test', ...extra };
}

export function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  return startBin(cliPath, { args: ['serve', ...args], env: childEnvironment(env) });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `firewarden <args>` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { env: childEnvironment(env), timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
