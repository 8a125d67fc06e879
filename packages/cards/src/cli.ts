#!/usr/bin/env node
/**
 * @module The `readme-cards` command: `serve` runs the service on Node with the stores and
 * GitHub settings read from the environment.
 */
import { createLogger, startNodeServer } from '@suite/server-kit';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { createApp, defaultGithubApiUrl } from './app.js';
import { createMemoryCache } from './store/card-cache.js';
import { defaultStorePath, openVisitorStore } from './store/open-visitor-store.js';
import { createRedisCache } from './store/redis-cache.js';

/** The environment the service reads, validated once at start-up. */
const environmentSchema = z.object({
  CARDS_STORE: z.string().min(1).default(defaultStorePath),
  CARDS_CACHE_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'CARDS_CACHE_URL must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GITHUB_TOKENS: z.string().optional(),
  GITHUB_TOKEN: z.string().optional(),
  GITHUB_API_URL: z.url().default(defaultGithubApiUrl),
});

/** `GITHUB_TOKENS` (comma-separated pool) plus `GITHUB_TOKEN`, without blanks or repeats. */
function tokenPool(environment: z.infer<typeof environmentSchema>): string[] {
  const tokens = [...(environment.GITHUB_TOKENS ?? '').split(','), environment.GITHUB_TOKEN ?? '']
    .map((token) => token.trim())
    .filter(Boolean);
  return [...new Set(tokens)];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError('port must be a number from 0 to 65535');
  return port;
}

async function serve(flags: { host: string; port: number }): Promise<void> {
  const logger = createLogger({ name: 'readme-cards' });
  const parsed = environmentSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    process.stderr.write(`readme-cards: ${String(issue.path[0])}: ${issue.message}\n`);
    process.exit(2);
  }
  const environment = parsed.data;
  const logRedisError = (role: string) => (error: Error) =>
    logger.warn({ err: error.message, role }, 'redis connection error');
  const visitors = await openVisitorStore(environment.CARDS_STORE, {
    onRedisError: logRedisError('visitor store'),
  });
  const cache = environment.CARDS_CACHE_URL
    ? createRedisCache(environment.CARDS_CACHE_URL, logRedisError('card cache'))
    : createMemoryCache();
  const app = createApp({
    visitors,
    cache,
    github: { tokens: tokenPool(environment), apiUrl: environment.GITHUB_API_URL },
    logger,
  });
  await startNodeServer({
    fetch: app.fetch,
    host: flags.host,
    port: flags.port,
    logger,
    onShutdown: async () => {
      await Promise.allSettled([visitors.close(), cache.close()]);
    },
  });
}

const program = new Command('readme-cards').description('SVG cards for README pages, served over HTTP.');
program
  .command('serve')
  .description('Serve the cards over HTTP.')
  .option('--host <host>', 'address to listen on', '0.0.0.0')
  .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 3000)
  .action(serve);

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`readme-cards: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
