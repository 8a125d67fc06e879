/**
 * @module Who may install or remove an extension from the command line: root, or an account that
 * can already write the installation's data (the folder of the SQLite database; on PostgreSQL the
 * configuration file, which holds the DSN). Such an account could change the database directly,
 * so the check refuses everyone else without granting anyone new power.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';

/** Null when allowed, else the reason to print. */
export function installRightsProblem(config: Config, configFile: string | null): string | null {
  if (process.getuid?.() === 0) return null;
  const target = config.database.driver === 'sqlite' ? path.dirname(config.database.sqlite_path) : configFile;
  if (target && canWrite(target)) return null;
  return `needs elevated rights: run as root (sudo) or as an account that can write ${target ?? 'the configuration file'}`;
}

function canWrite(target: string): boolean {
  try {
    accessSync(target, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
