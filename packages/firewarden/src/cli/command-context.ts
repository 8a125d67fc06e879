/**
 * @module What every CLI command starts from: the configuration (file, environment, then the
 * `--data-dir` flag) and, for commands that need it, the opened database.
 */
import path from 'node:path';
import { loadConfig } from '../config/load-config.js';
import type { Config } from '../config/schema.js';

export interface CommonOptions {
  config?: string;
  dataDir?: string;
  json?: boolean;
}

export interface CommandContext {
  config: Config;
  configFile: string | null;
}

/** `--data-dir` puts the SQLite file and the log in one folder (the suite launcher uses `data/firewarden`). */
export function commandContext(options: CommonOptions, environment = process.env): CommandContext {
  const { config, file } = loadConfig({ file: options.config, environment });
  if (!options.dataDir) return { config, configFile: file };
  const dir = path.resolve(options.dataDir);
  return {
    configFile: file,
    config: {
      ...config,
      database: { ...config.database, sqlite_path: path.join(dir, 'firewarden.db') },
      logging: { ...config.logging, file_path: path.join(dir, 'firewarden.log') },
    },
  };
}
