/**
 * @module The service log: the suite's logger writing to the configured file, as JSON lines or
 * plain text, at the configured level; firewarden's CSRF header is redacted too.
 */
import { createLogger, type Logger } from '@suite/server-kit';
import type { Config } from '../config/schema.js';

export type { Logger } from '@suite/server-kit';

export function createFileLogger(logging: Config['logging']): Logger {
  return createLogger({
    name: 'firewarden',
    level: logging.level,
    file: { path: logging.file_path, format: logging.format },
    redact: ['req.headers["x-firewarden-csrf"]'],
  });
}
