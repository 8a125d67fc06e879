/**
 * @module Starts the built `game-stats` bin as a child process and waits for its listening line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningBin {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far (the JSON log). */
  logs: () => string;
  stop: () => Promise<number | null>;
}

export async function startBin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningBin> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; stderr:\n${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}; stderr:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    logs: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
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
