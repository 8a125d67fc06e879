/**
 * @module Starts a server bin (any Node script) as a child process, waits for the operating
 * contract's `listening on http(s)://HOST:PORT` line, and stops it with SIGTERM, then SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface StartBinOptions {
  /** Arguments after the script (for a suite bin: `['serve', '--port', '0', ...]`). */
  args?: string[];
  /** The child's whole environment, as `spawn` takes it (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Working directory of the child (default: the test's own). */
  cwd?: string;
  /** How long to wait for the listening line before giving up (default 30 s). */
  readyTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before it sends SIGKILL (default 10 s). */
  killAfterMs?: number;
  /** Run the child as this user and group id (a root test starting a bin as an unprivileged account). */
  user?: { uid: number; gid: number };
}

export interface RunningBin {
  /** The URL exactly as the listening line printed it, e.g. `http://127.0.0.1:40213`. */
  url: string;
  port: number;
  child: ChildProcess;
  /** stdout and stderr so far, interleaved in the order they arrived. */
  output(): string;
  stdout(): string;
  /** stderr so far: the JSON log lines of the suite's servers. */
  stderr(): string;
  /** SIGTERM, SIGKILL if still running after the grace; resolves with the exit code (null when killed). */
  stop(): Promise<number | null>;
}

const listeningPrefix = 'listening on ';
/** Enough of the output to see why a bin died, short enough to read in a failed test. */
const outputTailChars = 4_000;
/** Streams may still hold the last lines when `exit` fires; `close` follows unless a grandchild holds them. */
const streamDrainMs = 1_000;

/**
 * Runs `node <script> ...args` and resolves once it prints its listening line.
 * Rejects with the output's tail when the bin exits first or stays silent past `readyTimeoutMs`
 * (the child is killed then, so no test leaves a stray server behind).
 *
 * @example
 * const bin = await startBin(cliPath, { args: ['serve', '--host', '127.0.0.1', '--port', '0'] });
 * await fetch(`${bin.url}/health`);
 * expect(await bin.stop()).toBe(0);
 */
export async function startBin(script: string, options: StartBinOptions = {}): Promise<RunningBin> {
  const child = spawn(process.execPath, [script, ...(options.args ?? [])], {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = exitOf(child);
  const tail = () => output.slice(-outputTailChars);

  const url = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script}: no listening line within ${timeoutMs} ms; output:\n${tail()}`));
    }, timeoutMs);
    let pending = '';
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      output += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      const found = lines.map(listeningUrl).find((candidate) => candidate !== undefined);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${script}: could not start: ${error.message}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script}: exited with ${code} before listening; output:\n${tail()}`));
    });
  });

  return {
    url,
    port: Number(new URL(url).port),
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 10_000);
        await exited;
        clearTimeout(killer);
      }
      return exited;
    },
  };
}

/** The URL of a contract line (`listening on http://127.0.0.1:8080`), else undefined. */
function listeningUrl(line: string): string | undefined {
  const text = line.trimEnd();
  if (!text.startsWith(listeningPrefix)) return undefined;
  const url = text.slice(listeningPrefix.length);
  return url.startsWith('http://') || url.startsWith('https://') ? url : undefined;
}

/** Resolves with the exit code once the child exited and its output was read to the end. */
function exitOf(child: ChildProcess): Promise<number | null> {
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const drained = setTimeout(() => resolve(code), streamDrainMs);
      void closed.then(() => {
        clearTimeout(drained);
        resolve(code);
      });
    });
  });
}
