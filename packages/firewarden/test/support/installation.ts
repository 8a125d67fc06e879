/**
 * @module A throw-away firewarden installation: a temp folder with a config file pointing at a
 * SQLite file there or at a fresh PostgreSQL schema, and a log file; an admin created through the
 * real CLI.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { createTestSchema, type TestSchema } from './postgres.js';
import { runCli } from './running-bin.js';

export type Driver = 'sqlite' | 'postgres';

export const adminPassword = 'correct horse battery staple';

export interface Installation {
  dir: string;
  configFile: string;
  logFile: string;
  sqliteFile: string;
  /** The PostgreSQL DSN (bound to this installation's schema), or null on SQLite. */
  dsn: string | null;
  driver: Driver;
  /** Writes the config file again with sections merged over the defaults of this installation. */
  writeConfig: (extra?: Record<string, Record<string, unknown>>) => Promise<void>;
  createAdmin: (username?: string) => Promise<void>;
  remove: () => Promise<void>;
}

/** Null when the driver is postgres and PostgreSQL is absent (outside CI). */
export async function createInstallation(driver: Driver): Promise<Installation | null> {
  let schema: TestSchema | null = null;
  if (driver === 'postgres') {
    schema = await createTestSchema();
    if (!schema) return null;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'firewarden-test-'));
  const configFile = path.join(dir, 'config.yaml');
  const logFile = path.join(dir, 'firewarden.log');
  const sqliteFile = path.join(dir, 'firewarden.db');
  const writeConfig = async (extra: Record<string, Record<string, unknown>> = {}) => {
    const base: Record<string, Record<string, unknown>> = {
      server: { bind: '127.0.0.1', port: 0 },
      database: schema
        ? { driver: 'postgres', postgres_dsn: schema.dsn }
        : { driver: 'sqlite', sqlite_path: sqliteFile },
      logging: { file_path: logFile, level: 'info' },
      agent: { socket_path: path.join(dir, 'agent.sock') },
      // With SQLite they default to the database's folder; with PostgreSQL to /var/lib/firewarden.
      ...(schema
        ? { audit: { key_file: path.join(dir, 'audit.key'), head_file: path.join(dir, 'audit.head') } }
        : {}),
    };
    for (const [section, values] of Object.entries(extra)) base[section] = { ...base[section], ...values };
    await writeFile(configFile, stringify(base));
  };
  await writeConfig();
  return {
    dir,
    configFile,
    logFile,
    sqliteFile,
    dsn: schema?.dsn ?? null,
    driver,
    writeConfig,
    async createAdmin(username = 'admin') {
      const result = await runCli(['user', 'create-admin', '--config', configFile, '--username', username], {
        FIREWARDEN_ADMIN_PASSWORD: adminPassword,
      });
      if (result.code !== 0) throw new Error(`create-admin failed: ${result.stderr}`);
    },
    async remove() {
      await rm(dir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}
