/**
 * @module Reads the YAML configuration file and `server.properties`, and derives what the
 * service needs: worlds, online source settings, API key (environment wins).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import type { OnlineSourceSettings } from '../online/online-poller.js';
import { type Config, type ConfigInput, configSchema } from './schema.js';
import {
  parseServerProperties,
  propertyBool,
  propertyInt,
  type ServerProperties,
} from './server-properties.js';

/** Environment variable that overrides `security.api-key` (keeps the secret out of the file). */
const apiKeyEnvironmentVariable = 'GAME_STATS_API_KEY';

export class ConfigError extends Error {}

/** Parses and validates a configuration file; relative `server-dir` is resolved against its folder. */
export function readConfigFile(file: string): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid YAML: ${(error as Error).message}`);
  }
  const config = parseConfig(raw, file);
  const folder = path.dirname(file);
  return {
    ...config,
    'server-dir': path.resolve(folder, config['server-dir']),
    ...(config.servers
      ? {
          servers: config.servers.map((server) => ({
            ...server,
            'server-dir': path.resolve(folder, server['server-dir']),
          })),
        }
      : {}),
  };
}

export function parseConfig(raw: unknown, where = 'config'): Config {
  if (typeof raw === 'object' && raw !== null && 'servers' in raw && ('server-dir' in raw || 'worlds' in raw))
    throw new ConfigError(`${where}: servers: give either servers or server-dir and worlds, not both`);
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(`${where}: ${formatIssues(result.error)}`);
  return result.data;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** One game server's folder, worlds and online source, with `server.properties` filled in. */
interface ResolvedServer {
  /** The server's name (`servers[].name`); `default` for a single `server-dir`. */
  name: string;
  serverDir: string;
  worlds: string[];
  online: OnlineSourceSettings;
  maxPlayers: number;
}

export interface ResolvedSettings extends Omit<ResolvedServer, 'name'> {
  config: Config;
  /** Every server; the fields above are the first one's (the only one of a single `server-dir`). */
  servers: ResolvedServer[];
  /** Whether `servers` was configured: answers then carry the per-server fields and accept `?server=`. */
  network: boolean;
}

/** Fills what the config leaves open from `server.properties` and the environment. */
export function resolveSettings(input: Config | ConfigInput, environment = process.env): ResolvedSettings {
  const config = configSchema.parse(input);
  const servers = config.servers
    ? config.servers.map((server) =>
        resolveServer(server.name, server['server-dir'], server.worlds, {
          rcon: { ...config.rcon, ...server.rcon },
          query: { ...config.query, ...server.query },
        }),
      )
    : [resolveServer('default', config['server-dir'], config.worlds, config)];
  const folders = new Set<string>();
  for (const server of servers) {
    if (folders.has(server.serverDir))
      throw new ConfigError(`servers: the folder ${server.serverDir} is given twice`);
    folders.add(server.serverDir);
  }
  const envKey = environment[apiKeyEnvironmentVariable];
  const withKey: Config = envKey
    ? { ...config, security: { ...config.security, 'api-key': envKey } }
    : config;
  const { name: _name, ...first } = servers[0]!;
  return { ...first, config: withKey, servers, network: config.servers !== undefined };
}

type OnlineConfig = Pick<Config, 'rcon' | 'query'>;

function resolveServer(
  name: string,
  dir: string,
  worlds: string[] | undefined,
  online: OnlineConfig,
): ResolvedServer {
  const serverDir = path.resolve(dir);
  if (!existsSync(serverDir))
    throw new ConfigError(
      `${name === 'default' ? 'server-dir' : `server ${name}:`} ${serverDir} does not exist`,
    );
  const propertiesFile = path.join(serverDir, 'server.properties');
  const properties: ServerProperties = existsSync(propertiesFile)
    ? parseServerProperties(readFileSync(propertiesFile, 'utf8'))
    : new Map();
  return {
    name,
    serverDir,
    worlds: worlds ?? [properties.get('level-name') || 'world'],
    online: onlineSource(online, properties),
    maxPlayers: propertyInt(properties, 'max-players') ?? 20,
  };
}

/** RCON when enabled (it tells UUIDs), else Query, else none. */
function onlineSource(config: OnlineConfig, properties: ServerProperties): OnlineSourceSettings {
  const rconEnabled = config.rcon.enabled ?? propertyBool(properties, 'enable-rcon') ?? false;
  const password = config.rcon.password ?? properties.get('rcon.password') ?? '';
  if (rconEnabled && password !== '') {
    return {
      kind: 'rcon',
      host: config.rcon.host,
      port: config.rcon.port ?? propertyInt(properties, 'rcon.port') ?? 25_575,
      password,
      intervalMs: config.rcon['interval-seconds'] * 1_000,
      timeoutMs: config.rcon['timeout-seconds'] * 1_000,
    };
  }
  if (config.query.enabled ?? propertyBool(properties, 'enable-query') ?? false) {
    return {
      kind: 'query',
      host: config.query.host,
      port:
        config.query.port ??
        propertyInt(properties, 'query.port') ??
        propertyInt(properties, 'server-port') ??
        25_565,
      intervalMs: config.query['interval-seconds'] * 1_000,
      timeoutMs: config.query['timeout-seconds'] * 1_000,
    };
  }
  return { kind: 'none' };
}
