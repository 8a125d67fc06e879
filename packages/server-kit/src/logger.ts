/**
 * @module Logger set-up shared by the server products: JSON lines on stderr, pretty only on a terminal.
 */
import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  /** Product name, written as `name` on every line. */
  name: string;
  /** pino level; default `info`, or `LOG_LEVEL` from the environment. */
  level?: string;
  /** Force pretty (true) or JSON (false) output; default: pretty only when stderr is a terminal. */
  pretty?: boolean;
}

/** Keys whose values are never written, wherever they sit in a log object. */
const redactedPaths = [
  'password',
  'token',
  'secret',
  'apiKey',
  'authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.secret',
];

/**
 * Creates the product logger. Logs go to stderr so that stdout carries only the lines a
 * person or a supervising script reads (such as `listening on http://HOST:PORT`).
 */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.name,
    level: settings.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
  };
  const pretty = settings.pretty ?? Boolean(process.stderr.isTTY);
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } },
    });
  }
  return pino(options, pino.destination({ dest: 2, sync: false }));
}
