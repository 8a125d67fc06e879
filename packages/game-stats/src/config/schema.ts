/**
 * @module The YAML configuration: one zod schema that validates the file and gives every
 * default (keys and defaults as in DESIGN.md).
 */
import { z } from 'zod';
import { isTimeZone } from '../history/time-window.js';

const port = z.number().int().min(0).max(65_535);
const positiveSeconds = z.number().positive().max(86_400);

/** A server's name in a network: what `?server=` and the `servers` fields of answers say. */
export const serverNamePattern = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const onlineSourceSettings = {
  /** Default: what `server.properties` says (`enable-rcon` / `enable-query`). */
  enabled: z.boolean().optional(),
  host: z.string().min(1).default('127.0.0.1'),
  /** Default: `rcon.port` / `query.port` of `server.properties`. */
  port: port.optional(),
  'interval-seconds': positiveSeconds.default(5),
  'timeout-seconds': positiveSeconds.default(3),
};

/** Every key optional: a server's own block overrides the top-level `rcon` / `query` key by key. */
const onlineSourceOverrides = {
  enabled: z.boolean().optional(),
  host: z.string().min(1).optional(),
  port: port.optional(),
  'interval-seconds': positiveSeconds.optional(),
  'timeout-seconds': positiveSeconds.optional(),
};

/** One server of a network (`servers:`). */
const networkServerSchema = z
  .object({
    name: z
      .string()
      .regex(serverNamePattern, 'lower-case letters, digits, _ and -, at most 32, not starting with _ or -'),
    /** Relative to the config file's folder. */
    'server-dir': z.string().min(1),
    worlds: z.array(z.string().min(1)).min(1).optional(),
    rcon: z
      .object({ ...onlineSourceOverrides, password: z.string().optional() })
      .strict()
      .optional(),
    query: z.object(onlineSourceOverrides).strict().optional(),
  })
  .strict();

export type NetworkServerConfig = z.output<typeof networkServerSchema>;

export const configSchema = z
  .object({
    server: z
      .object({ host: z.string().min(1).default('0.0.0.0'), port: port.default(8080) })
      .strict()
      .prefault({}),
    /** Folder holding `server.properties`, `usercache.json` and the worlds; relative to the config file. */
    'server-dir': z.string().min(1).default('.'),
    /** World folders to read; default the `level-name` of `server.properties`. */
    worlds: z.array(z.string().min(1)).min(1).optional(),
    /** Several servers served as one network (replaces `server-dir` and `worlds`). */
    servers: z
      .array(networkServerSchema)
      .min(1)
      .max(64)
      .superRefine((servers, context) => {
        const seen = new Set<string>();
        servers.forEach((server, position) => {
          if (seen.has(server.name))
            context.addIssue({
              code: 'custom',
              path: [position, 'name'],
              message: `duplicate server name "${server.name}"`,
            });
          seen.add(server.name);
        });
      })
      .optional(),
    rcon: z
      .object({
        ...onlineSourceSettings,
        /** Default: `rcon.password` of `server.properties`. */
        password: z.string().optional(),
      })
      .strict()
      .prefault({}),
    query: z.object(onlineSourceSettings).strict().prefault({}),
    security: z
      .object({
        'enable-api-key': z.boolean().default(false),
        /** Overridden by the `GAME_STATS_API_KEY` environment variable. */
        'api-key': z.string().default(''),
        'enable-cors': z.boolean().default(true),
        'cors-origin': z.string().min(1).default('*'),
        'enable-ip-whitelist': z.boolean().default(false),
        'allowed-ips': z.array(z.string().min(1)).default([]),
        /** Proxies (addresses or CIDR ranges) whose `X-Forwarded-For` is believed. */
        'trusted-proxies': z.array(z.string().min(1)).default([]),
      })
      .strict()
      .prefault({}),
    'rate-limit': z
      .object({
        enabled: z.boolean().default(true),
        requests: z.number().int().positive().default(120),
        'window-seconds': positiveSeconds.default(60),
      })
      .strict()
      .prefault({}),
    pagination: z
      .object({
        'default-limit': z.number().int().positive().default(25),
        'max-limit': z.number().int().positive().max(10_000).default(100),
      })
      .strict()
      .refine((value) => value['default-limit'] <= value['max-limit'], {
        message: 'default-limit must not exceed max-limit',
      })
      .prefault({}),
    compression: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .prefault({}),
    index: z
      .object({
        watch: z.boolean().default(true),
        /** Full rescan (stat of every file) as a safety net behind the watcher; 0 turns it off. */
        'rescan-seconds': z.number().min(0).max(86_400).default(300),
        /** From this many files on, the first build parses on worker threads. */
        'parallel-read-min-files': z.number().int().min(1).default(2_000),
        /**
         * Where the index is saved for fast restarts (relative to server-dir); false: never.
         * Default: `$XDG_CACHE_HOME/game-stats/` (else `~/.cache/game-stats/`), one file per server folder.
         */
        'snapshot-file': z.union([z.string().min(1), z.literal(false)]).optional(),
        /** How often the snapshot is rewritten while files change; 0: only after the build. */
        'snapshot-seconds': z.number().min(0).max(86_400).default(600),
      })
      .strict()
      .prefault({}),
    /** Seconds between two snapshots of every player's values (leaderboards over a window). */
    'history-seconds': z.number().int().min(1).max(86_400).default(3_600),
    /** Snapshots older than this are dropped (the oldest kept one becomes the new start). */
    'history-retention-days': z.number().positive().max(3_660).default(35),
    /** Bound of the snapshot files on disk, in MB (oldest dropped first). */
    'history-max-mb': z.number().positive().default(200),
    /** Time zone of `period=day|week|month` and of a bare `since` date. */
    'history-time-zone': z.string().refine(isTimeZone, 'unknown time zone').default('UTC'),
    /** Leaderboard stats defined as the sum of other stats: `name: [stat, stat...]`. */
    'custom-stats': z
      .record(
        z.string().regex(/^[a-z0-9_]{1,64}$/, 'lower-case letters, digits, _'),
        z.array(z.string().min(1)).min(1),
      )
      .default({}),
  })
  .strict();

/** The configuration as written (every key optional). */
export type ConfigInput = z.input<typeof configSchema>;
/** The configuration with every default filled in. */
export type Config = z.output<typeof configSchema>;
