/**
 * @module Starts the built `game-stats` bin as a child process and waits for its listening line.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningBin as RunningScript, startBin as startScript } from '@suite/test-kit';

const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningBin extends RunningScript {
  /** Everything the process wrote to stderr so far (the JSON log). */
  logs: () => string;
}

/** `serve` on a free loopback port; `env` is added to the test's own environment. */
export async function startBin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningBin> {
  const running = await startScript(cliPath, {
    args: ['serve', '--host', '127.0.0.1', '--port', '0', ...args],
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  });
  return { ...running, logs: running.stderr };
}

/** GET (or another method) and the parsed JSON body. */
export async function getJson(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  return { status: response.status, headers: response.headers, body: body as any };
}

/** Polls `check` until it returns true (for file-watch and polling effects). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

/** Runs the bin once (`top`, `player`...) and returns its exit code and output. */
export async function runCli(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliPath, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
