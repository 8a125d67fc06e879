#!/usr/bin/env node
/**
 * @module The `readme-cards` command: `serve` runs the service on Node with the stores and
 * GitHub settings read from the environment.
 */
import { createLogger, startNodeServer } from '@suite/server-kit';
import { Command, InvalidArgumentError } from 'commander';
import { appOptionsFromEnvironment, EnvironmentError } from './adapter/node/environment.js';
import { createApp } from './app.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError('port must be a number from 0 to 65535');
  return port;
}

async function serve(flags: { host: string; port: number }): Promise<void> {
  const logger = createLogger({ name: 'readme-cards' });
  const options = await appOptionsFromEnvironment(process.env, logger).catch((error: unknown) => {
    if (!(error instanceof EnvironmentError)) throw error;
    process.stderr.write(`readme-cards: ${error.message}\n`);
    process.exit(2);
  });
  const app = createApp(options);
  await startNodeServer({
    fetch: app.fetch,
    host: flags.host,
    port: flags.port,
    logger,
    onShutdown: async () => {
      await Promise.allSettled([options.visitors.close(), options.cache.close()]);
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
