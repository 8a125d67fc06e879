/**
 * @module The loopback PostgreSQL and Redis the store tests use: their URLs, whether they
 * answer, and the skip rule (skipped with a reason on a developer machine, failing on CI).
 */
import { Redis } from 'ioredis';
import pg from 'pg';

export const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

export const postgresUp = await reachable(async () => {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2_000 });
  await client.connect();
  await client.end();
});

export const redisUp = await reachable(async () => {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0 });
  await redis.connect();
  await redis.quit();
});

/** On a developer machine without the service, skip with a reason; on CI, run and fail. */
export function available(name: string, up: boolean): boolean {
  if (up || process.env.CI) return true;
  console.warn(`skipping the ${name} store test: ${name} is not reachable on loopback`);
  return false;
}
