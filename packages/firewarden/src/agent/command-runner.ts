/**
 * @module Runs the agent's commands: an argument array through `execFile` (never a shell), a
 * minimal environment, a timeout that kills, and a cap on what the command may print. Nothing a
 * client sends ever becomes a program name; only the operations' fixed tool names do.
 */
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** stdin: a string, or text written as it comes (the command starts on the first part). */
  input?: string | AsyncIterable<string>;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

export type CommandRunner = (argv: readonly string[], options?: RunOptions) => Promise<CommandResult>;

/** What a command may rely on: sbin folders first, the C locale for parseable output. */
export const minimalEnvironment: Readonly<Record<string, string>> = {
  PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
  LC_ALL: 'C',
  LANG: 'C',
};

export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    readonly argv: readonly string[],
    readonly reason: 'timeout' | 'output_too_large' | 'not_found' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

const defaultTimeoutMs = 20_000;
const defaultMaxOutputBytes = 32 * 1024 * 1024;

/** A runner; `prefix` (e.g. `ip netns exec <ns>`) is put before every command. */
export function createCommandRunner(prefix: readonly string[] = []): CommandRunner {
  return (argv, options = {}) =>
    new Promise((resolve, reject) => {
      const full = [...prefix, ...argv];
      const child = execFile(
        full[0]!,
        full.slice(1),
        {
          env: minimalEnvironment,
          shell: false,
          timeout: options.timeoutMs ?? defaultTimeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: options.maxOutputBytes ?? defaultMaxOutputBytes,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error === null) return resolve({ code: 0, stdout, stderr });
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          if (failure.code === 'ENOENT') {
            return reject(new CommandError(argv, 'not_found', `${argv[0]} is not installed`));
          }
          if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
            return reject(new CommandError(argv, 'output_too_large', `${argv[0]} printed more than allowed`));
          }
          if (failure.killed)
            return reject(new CommandError(argv, 'timeout', `${argv[0]} did not finish in time`));
          resolve({ code: typeof failure.code === 'number' ? failure.code : 1, stdout, stderr });
        },
      );
      child.stdin?.on('error', () => undefined);
      if (typeof options.input === 'object' && child.stdin) Readable.from(options.input).pipe(child.stdin);
      else child.stdin?.end(options.input ?? '');
    });
}
