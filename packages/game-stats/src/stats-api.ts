/**
 * @module `createStatsApi(options)`: builds the index, starts the online poller and returns the
 * Hono app, for the bundled server and for Node hosts that embed the API.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { type ResolvedSettings, resolveSettings } from './config/load-config.js';
import type { Config, ConfigInput } from './config/schema.js';
import { StatHistory } from './history/stat-history.js';
import { createApp } from './http/app.js';
import { AnswersByTarget, answerShortcut } from './http/fragment-cache.js';
import { type DirectAnswer, directAnswer } from './http/node-fast-path.js';
import { type ClientAddressReader, nodePeerAddress } from './http/security.js';
import type { Network } from './http/server-scope.js';
import { PlayerIndex } from './index/player-index.js';
import type { StatsSource } from './index/stats-source.js';
import { NetworkPresence } from './online/network-presence.js';
import { OnlinePoller } from './online/online-poller.js';
import { Presence } from './online/presence.js';
import { Directory } from './query/directory.js';
import { builtinStats, type StatDefinition, StatResolver } from './query/stat-resolver.js';

export interface StatsApiOptions {
  /** The configuration (YAML keys); `server-dir` is where the game server lives. */
  config?: Config | ConfigInput;
  logger?: Logger;
  /** Reads the client address of a request; default: the Node socket peer (@hono/node-server). */
  peerAddress?: ClientAddressReader;
  /** Called while the index builds (files read so far, files in total). */
  onProgress?: (done: number, total: number) => void;
  /** Watch the folders and poll the online source (default true; false for one-shot reads). */
  live?: boolean;
  /** Environment read for `GAME_STATS_API_KEY` (default process.env). */
  environment?: NodeJS.ProcessEnv;
}

export interface StatsApi {
  /** The Hono app; mount it or pass `app.fetch` to any server. */
  app: Hono;
  fetch: Hono['fetch'];
  /**
   * For Node hosts: answers a repeated GET straight from its cached answer (returns true) before
   * any framework work; absent when a request-dependent check is configured.
   */
  answerDirectly?: DirectAnswer;
  index: PlayerIndex;
  /** Who is online: the server's presence, or for a network the union of its servers'. */
  presence: Presence | NetworkPresence;
  directory: Directory;
  /** The servers of a network (`servers:`), each with its own read models; absent for one server. */
  network?: Network;
  resolver: StatResolver;
  /** The periodic snapshots behind windowed leaderboards (started only when live). */
  history: StatHistory;
  settings: ResolvedSettings;
  /** Adds a leaderboard statistic: a list of stats to sum, or a function of the raw stats. */
  registerStat(name: string, definition: StatDefinition): void;
  /** Stops watching and polling. */
  close(): void;
}

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * @example
 * const api = await createStatsApi({ config: { 'server-dir': '/srv/minecraft' } });
 * serve({ fetch: api.fetch, port: 8080 });
 */
export async function createStatsApi(options: StatsApiOptions = {}): Promise<StatsApi> {
  const settings = resolveSettings(options.config ?? {}, options.environment);
  const { config, logger } = { config: settings.config, logger: options.logger };
  const live = options.live ?? true;
  const snapshotFile = snapshotFileOf(settings, options.environment ?? process.env);
  const index = new PlayerIndex({
    serverDir: settings.serverDir,
    worlds: settings.worlds,
    network: settings.network ? settings.servers : undefined,
    logger,
    onProgress: options.onProgress,
    parallelReadMinFiles: config.index['parallel-read-min-files'],
    snapshotFile,
    snapshotSeconds: config.index['snapshot-seconds'],
  });
  // Watching starts before the build, so a file written while it reads is caught up after it.
  if (live && config.index.watch) index.watch(config.index['rescan-seconds']);
  await index.build();
  // Beside the index snapshot, in a folder of its own; in memory only without a snapshot file. A
  // network keeps one for its totals and one per server, sharing the size bound.
  const historyShare = 1 + index.servers.length;
  const historyOf = (source: StatsSource, suffix: string) =>
    new StatHistory(source, {
      folder: snapshotFile ? `${snapshotFile}.history${suffix}` : undefined,
      intervalSeconds: config['history-seconds'],
      retentionMs: config['history-retention-days'] * 86_400_000,
      maxBytes: (config['history-max-mb'] * 1024 * 1024) / historyShare,
      logger,
    });
  const history = historyOf(index, '');
  const serverHistories = index.servers.map((view) => historyOf(view, `-${view.name}`));
  // Restored while the API listens: answers that use a history wait for it (`whenReady`).
  if (live)
    for (const each of [history, ...serverHistories])
      each.start().catch((error: unknown) => logger?.warn({ err: error }, 'history not restored'));
  const resolver = new StatResolver(index.keys);
  for (const [name, parts] of Object.entries(config['custom-stats'])) resolver.register(name, parts);
  const online = settings.servers.map((server) => {
    const presence = new Presence(server.online.kind);
    const poller = new OnlinePoller({
      source: live ? server.online : { kind: 'none' },
      presence,
      names: index.names,
      logger: settings.network ? logger?.child({ server: server.name }) : logger,
      onChange: () => {
        index.generation++;
      },
    });
    return { server, presence, poller };
  });
  if (live) await Promise.all(online.map(({ poller }) => poller.start()));
  const network: Network | undefined = settings.network
    ? {
        presence: new NetworkPresence(
          online.map(({ server, presence }) => ({
            name: server.name,
            presence,
            maxPlayers: server.maxPlayers,
          })),
        ),
        servers: index.servers.map((view, position) => ({
          view,
          presence: online[position]!.presence,
          directory: new Directory(view, online[position]!.presence),
          history: live ? serverHistories[position] : undefined,
          maxPlayers: online[position]!.server.maxPlayers,
        })),
      }
    : undefined;
  const presence = network ? network.presence : online[0]!.presence;
  const directory = new Directory(index, presence);
  // The built-in leaderboards are the ones most asked for: they are ranked from now on, in steps
  // (about 1 s of work at 100,000 players that the start no longer waits for).
  void directory.warmUp(builtinStats.flatMap((name) => resolver.resolve(name) ?? []));
  const answers = everyGetPassesTheGate(config) ? new AnswersByTarget() : undefined;
  const inFlight = { count: 0 };
  const app = createApp({
    context: {
      config,
      index,
      presence,
      directory,
      resolver,
      history: live ? history : undefined,
      version: packageVersion,
      startedAt: Date.now(),
      maxPlayers: settings.servers.reduce((sum, server) => sum + server.maxPlayers, 0),
      gameVersion: () => online.find(({ poller }) => poller.gameVersion !== null)?.poller.gameVersion ?? null,
      inFlight,
      answers,
      network,
    },
    peerAddress: options.peerAddress ?? nodePeerAddress,
    logger,
  });
  return {
    app,
    fetch: answers ? answerShortcut(app.fetch, answers, () => directory.generation()) : app.fetch,
    answerDirectly: answers ? directAnswer(answers, () => directory.generation(), inFlight) : undefined,
    index,
    presence,
    directory,
    network,
    resolver,
    history,
    settings,
    registerStat: (name, definition) => {
      resolver.register(name, definition);
      // Rankings are cached by stat name: a replaced definition must not serve the old one.
      index.generation++;
    },
    close: () => {
      for (const each of [history, ...serverHistories]) each.close();
      for (const { poller } of online) poller.stop();
      index.close();
    },
  };
}

/** The configured snapshot file, else one per server folder and worlds in the user's cache folder. */
function snapshotFileOf(settings: ResolvedSettings, environment: NodeJS.ProcessEnv): string | undefined {
  const setting = settings.config.index['snapshot-file'];
  if (setting === false) return undefined;
  if (setting !== undefined) return path.resolve(settings.serverDir, setting);
  const cache = environment.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const folders = settings.network
    ? ['network', settings.servers.map((server) => [server.serverDir, server.worlds])]
    : [settings.serverDir, settings.worlds];
  const owner = createHash('sha256').update(JSON.stringify(folders)).digest('hex');
  return path.join(cache, 'game-stats', `index-${owner.slice(0, 16)}.snapshot`);
}

/**
 * Whether a GET's answer depends on nothing but its target: no API key, allow-list or rate limit
 * to check, no compression negotiated. Only then may a repeated GET skip the app (the answer
 * shortcut); otherwise every request goes through the gate.
 */
function everyGetPassesTheGate(config: Config): boolean {
  const keyRequired = config.security['enable-api-key'] && config.security['api-key'].trim() !== '';
  return (
    !keyRequired &&
    !config.security['enable-ip-whitelist'] &&
    !config['rate-limit'].enabled &&
    !config.compression.enabled
  );
}
