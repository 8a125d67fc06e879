/**
 * @module The service log: pino writing to the configured file, as JSON lines or as plain text
 * (pino-pretty without colours), at the configured level. Secrets are redacted wherever they sit.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config/schema.js';

export type { Logger } from 'pino';

/** Values under these keys are never written: passwords, tokens, cookies, CSRF. */
const redactedPaths = [
  'password',
  'token',
  'secret',
  'csrf',
  'csrf_token',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.csrf_token',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-firewarden-csrf"]',
];

export function createFileLogger(logging: Config['logging']): Logger {
  mkdirSync(path.dirname(logging.file_path), { recursive: true, mode: 0o750 });
  const options = {
    name: 'firewarden',
    level: logging.level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
  };
  if (logging.format === 'text') {
    return pino(
      options,
      pretty({
        destination: pino.destination({ dest: logging.file_path, sync: true, mode: 0o640 }),
        colorize: false,
        translateTime: 'SYS:standard',
      }),
    );
  }
  return pino(options, pino.destination({ dest: logging.file_path, sync: false, mkdir: true, mode: 0o640 }));
}
