/**
 * @module Opens the visitor store named by `CARDS_STORE`: a SQLite file path (default
 * `./data/cards.db`), `redis://...` or `postgres://...`. Drivers (and Node built-ins) load only
 * when used, so importing the package stays possible on edge runtimes.
 */

import { connectRedis, type RedisErrorHandler } from './redis-connection.js';
import { defaultVisitorTable, type VisitorStore, type VisitorStoreLimits } from './visitor-store.js';

export const defaultStorePath = './data/cards.db';

export interface OpenVisitorStoreOptions extends VisitorStoreLimits {
  /** SQL table (SQLite/PostgreSQL); default `visitor_counts`. */
  table?: string;
  /** Redis key prefix; default `readme-cards:visitors:`. */
  redisPrefix?: string;
  /** Receives Redis connection errors (log them); increments meanwhile fail with a 503 card. */
  onRedisError?: RedisErrorHandler;
  /** Clock of the retention rule; default `Date.now`. */
  now?: () => number;
}

async function openSqlite(
  path: string,
  table: string,
  options: OpenVisitorStoreOptions,
): Promise<VisitorStore> {
  const [
    { mkdirSync },
    { dirname },
    { default: Database },
    { Kysely, SqliteDialect },
    { createSqlVisitorStore },
  ] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('better-sqlite3'),
    import('kysely'),
    import('./sql-visitor-store.js'),
  ]);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  // WAL lets readers and the writer work at once; busy_timeout makes a second process
  // sharing the file wait for the lock instead of failing.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return createSqlVisitorStore(new Kysely({ dialect: new SqliteDialect({ database }) }), table, options);
}

async function openPostgres(
  url: string,
  table: string,
  options: OpenVisitorStoreOptions,
): Promise<VisitorStore> {
  const [{ default: pg }, { Kysely, PostgresDialect }, { createSqlVisitorStore }] = await Promise.all([
    import('pg'),
    import('kysely'),
    import('./sql-visitor-store.js'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return createSqlVisitorStore(new Kysely({ dialect: new PostgresDialect({ pool }) }), table, options);
}

async function openRedis(url: string, options: OpenVisitorStoreOptions): Promise<VisitorStore> {
  const [redis, { createRedisVisitorStore }] = await Promise.all([
    connectRedis(url, 3, options.onRedisError),
    import('./redis-visitor-store.js'),
  ]);
  return createRedisVisitorStore(redis, options.redisPrefix ?? 'readme-cards:visitors:', options);
}

/**
 * Opens the store for `location`.
 *
 * @example await openVisitorStore(process.env.CARDS_STORE ?? defaultStorePath)
 */
export function openVisitorStore(
  location: string,
  options: OpenVisitorStoreOptions = {},
): Promise<VisitorStore> {
  const table = options.table ?? defaultVisitorTable;
  if (/^rediss?:\/\//.test(location)) return openRedis(location, options);
  if (/^postgres(ql)?:\/\//.test(location)) return openPostgres(location, table, options);
  return openSqlite(location, table, options);
}
