#!/usr/bin/env node
/**
 * @module The `game-stats` command: `serve` runs the API; `top` and `player` print tables from
 * a server folder without starting it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLogger, startNodeServer } from '@suite/server-kit';
import { Command, InvalidArgumentError } from 'commander';
import { playerCommand, topCommand } from './cli/offline-commands.js';
import { namesAServer, serversFromFlags } from './config/cli-servers.js';
import { ConfigError, parseConfig, readConfigFile } from './config/load-config.js';
import type { Config } from './config/schema.js';
import { putInFront } from './http/node-fast-path.js';
import { createStatsApi } from './stats-api.js';

interface SourceOptions {
  config?: string;
  /** Every `--server-dir` given, in order. */
  serverDir?: string[];
  historySeconds?: number;
}

function loadConfig(options: SourceOptions): Config {
  const config = options.config ? readConfigFile(options.config) : parseConfig({});
  return {
    ...withServerFlags(config, options.serverDir ?? []),
    ...(options.historySeconds ? { 'history-seconds': options.historySeconds } : {}),
  };
}

/**
 * `--server-dir` replaces the file's `server-dir` or `servers`: once with a bare folder, a single
 * server as before; repeated (or `name=dir`), a network.
 */
function withServerFlags(config: Config, flags: string[]): Config {
  if (flags.length === 0) return config;
  const { servers: _servers, worlds, ...rest } = config;
  if (flags.length === 1 && !namesAServer(flags[0]!))
    return { ...rest, ...(worlds ? { worlds } : {}), 'server-dir': flags[0]! };
  return { ...rest, servers: serversFromFlags(flags) };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function secondsNumber(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 86_400)
    throw new InvalidArgumentError('must be 1-86400');
  return Number(text);
}

function portNumber(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) throw new InvalidArgumentError('must be 0-65535');
  return Number(text);
}

/**
 * V8 lets the old generation grow up to 4x its live size between full collections on a machine
 * with memory to spare; under load most of that growth is short-lived request garbage promoted
 * by scavenges, and the index's peak RSS doubled. 30 % growth keeps the peak near the live size
 * (the full collections are incremental and concurrent; read at every collection, so it
 * applies although set after start).
 */
setFlagsFromString('--heap-growing-percent=30');

/**
 * A full garbage collection, run once before listening: the build leaves hundreds of MB of
 * parse and restore garbage, and collecting it later would pause the first requests (about
 * 100 ms at 100,000 players) and let the heap limit grow from an inflated size.
 */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const program = new Command()
  .name('game-stats')
  .description('Statistics API for Minecraft-style servers: players, leaderboards, online status.')
  .showHelpAfterError();

const withSource = (command: Command) =>
  command
    .option('-c, --config <file.yml>', 'YAML configuration file')
    .option(
      '-d, --server-dir <dir>',
      'game server folder (overrides server-dir of the config); repeat it, or give name=dir, for a network of servers',
      collect,
    );

withSource(program.command('serve').description('serve the HTTP API'))
  .option('--host <host>', 'address to listen on (default server.host, 0.0.0.0)')
  .option('--port <port>', 'port to listen on, 0 for any free port (default server.port, 8080)', portNumber)
  .option(
    '--history-seconds <n>',
    'seconds between two history snapshots (default history-seconds, 3600)',
    secondsNumber,
  )
  .action(async (options: SourceOptions & { host?: string; port?: number }) => {
    const logger = createLogger({ name: 'game-stats' });
    const config = loadConfig(options);
    const api = await createStatsApi({
      config,
      logger,
      onProgress: (done, total) => logger.info({ done, total }, `indexing statistics files ${done}/${total}`),
    });
    collectGarbage();
    const { counts } = api.index;
    logger.info(
      { players: counts.players, files: counts.files, skipped: counts.skippedFiles, ms: counts.lastBuildMs },
      'index built',
    );
    const running = await startNodeServer({
      fetch: api.fetch,
      host: options.host ?? config.server.host,
      port: options.port ?? config.server.port,
      logger,
      onShutdown: async () => {
        api.close();
        // A restart after a clean stop then reads no statistics file at all.
        await api.index.saveSnapshot();
      },
    });
    if (api.answerDirectly) putInFront(running.server, api.answerDirectly);
  });

const offline = (command: Command) => withSource(command).option('--json', 'print JSON instead of a table');

offline(program.command('top <stat>').description('print a leaderboard'))
  .option('-n, --limit <n>', 'entries to show (capped by pagination.max-limit)')
  .option('--page <n>', 'zero-based page')
  .option('--order <asc|desc>', 'sort direction (default desc)')
  .action(
    async (
      stat: string,
      options: SourceOptions & { json?: boolean; limit?: string; page?: string; order?: string },
    ) => {
      const output = await topCommand({
        ...options,
        config: loadConfig(options),
        json: options.json ?? false,
        stat,
        progress,
      });
      finish(output);
    },
  );

offline(program.command('player <id>').description("print a player's summary (UUID or name)")).action(
  async (id: string, options: SourceOptions & { json?: boolean }) => {
    const output = await playerCommand({
      config: loadConfig(options),
      json: options.json ?? false,
      id,
      progress,
    });
    finish(output);
  },
);

/** Progress only on a terminal, so piped output stays clean. */
function progress(line: string) {
  if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
}

function finish(output: { exitCode: number; text: string }) {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  (output.exitCode === 0 ? process.stdout : process.stderr).write(`${output.text}\n`);
  process.exitCode = output.exitCode;
}

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`game-stats: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
