/**
 * @module Logger set-up shared by the server products: JSON lines on stderr, pretty only on a
 * terminal; or a log file (JSON lines or plain text) for a product run as a system service.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Logger, type LoggerOptions, pino } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

export interface LoggerSettings {
  /** Product name, written as `name` on every line. */
  name: string;
  /** pino level; default `info`, or `LOG_LEVEL` from the environment. */
  level?: string;
  /** Force pretty (true) or JSON (false) output; default: pretty only when stderr is a terminal. */
  pretty?: boolean;
  /** Write to this file instead of stderr; see `LogFile`. */
  file?: LogFile;
  /** Further keys to redact (a product's own secret headers), beyond the shared list. */
  redact?: readonly string[];
}

export interface LogFile {
  path: string;
  /** JSON lines (default) or plain text (pino-pretty without colours). */
  format?: 'json' | 'text';
  /** Mode of a new log file; default 0640, since logs hold client addresses. Its folder is 0750. */
  mode?: number;
}

/** Keys whose values are never written, wherever they sit in a log object. */
const redactedPaths = [
  'password',
  'token',
  'secret',
  'apiKey',
  'authorization',
  'cookie',
  'csrf',
  'csrf_token',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.csrf_token',
];

/**
 * Creates the product logger. Logs go to stderr so that stdout carries only the lines a
 * person or a supervising script reads (such as `listening on http://HOST:PORT`).
 */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.name,
    level: settings.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: [...redactedPaths, ...(settings.redact ?? [])], censor: '[redacted]' },
  };
  if (settings.file) return createFileLogger(options, settings.file);
  const prettyOutput = settings.pretty ?? Boolean(process.stderr.isTTY);
  if (prettyOutput) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } },
    });
  }
  return pino(options, pino.destination({ dest: 2, sync: false }));
}

function createFileLogger(options: LoggerOptions, file: LogFile): Logger {
  const mode = file.mode ?? 0o640;
  mkdirSync(dirname(file.path), { recursive: true, mode: 0o750 });
  if (file.format === 'text') {
    const destination = pino.destination({ dest: file.path, sync: true, mode });
    return pino(options, pretty({ destination, colorize: false, translateTime: 'SYS:standard' }));
  }
  return pino(options, pino.destination({ dest: file.path, sync: false, mode }));
}
