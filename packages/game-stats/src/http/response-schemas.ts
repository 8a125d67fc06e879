/**
 * @module zod schemas of every response body: the types the handlers build and the
 * source of the OpenAPI document's response section.
 */
import { z } from 'zod';

const timestamp = z.iso.datetime().describe('ISO 8601 UTC');
const integer = z.number().int();
const twoDecimals = z.number().describe('rounded to 2 decimals');
const uuid = z.string().describe('dashed lower-case UUID');

export const errorSchema = z.object({
  success: z.literal(false),
  status: integer,
  error: z.string(),
  timestamp,
});

export const statsNotFoundSchema = z.object({
  error: z.literal(true),
  message: z.literal('Stats not found'),
});

/** A network's server: whether its answers are current (see the README's "Networks in the API"). */
const serverStateSchema = z.object({
  name: z.string(),
  state: z
    .enum(['ok', 'stale', 'offline'])
    .describe(
      'stale: folder unreadable, its last known statistics are served; offline: its online source is unreachable',
    ),
  since: timestamp.describe('when the server entered this state'),
  reason: z.string().nullable(),
});

/** Network only: every server's state, on every answer. */
const serverStates = z
  .array(serverStateSchema)
  .optional()
  .describe('network only: the state of every server');
/** Network only: where a player is online. */
const onlineServer = z
  .string()
  .nullable()
  .optional()
  .describe('network only: the server the player is online on (null: offline)');
/** Network only: the `?server=` the answer is limited to. */
const scopeServer = z
  .string()
  .nullable()
  .optional()
  .describe('network only: the server asked for (null: all)');

const onlineStatusSchema = z.object({
  source: z.enum(['rcon', 'query', 'none']),
  connected: z.boolean(),
  last_success: timestamp.nullable(),
  last_error: z.string().nullable(),
});

export const healthSchema = z.object({
  system: z.object({
    status: z.enum(['ok', 'degraded']).describe('degraded while the configured online source is unreachable'),
    timestamp,
    uptime_seconds: integer,
    plugin_version: z.string(),
    game_version: z.string(),
    server_version: z.string(),
    platform_version: z.string(),
  }),
  players: z.object({ online: integer, max: integer }),
  memory: z.object({
    used_mb: integer,
    free_mb: integer,
    max_mb: integer,
    heap_used_mb: integer,
    heap_committed_mb: integer,
    heap_max_mb: integer,
  }),
  features: z.object({
    https_enabled: z.boolean(),
    compression_enabled: z.boolean(),
    async_enabled: z.boolean(),
    rate_limit_enabled: z.boolean(),
    api_auth_enabled: z.boolean(),
    docs_enabled: z.boolean(),
  }),
  executor: z.object({ active: integer.describe('requests being handled') }),
  online_status: onlineStatusSchema,
  index: z.object({
    players: integer,
    files: integer,
    skipped_files: integer,
    built_at: timestamp,
    build_ms: integer,
    restored_files: integer,
  }),
  history: z
    .object({
      interval_seconds: integer,
      snapshots: integer,
      first_at: timestamp.nullable(),
      last_at: timestamp.nullable(),
      bytes: integer.describe('size of the snapshot files on disk'),
    })
    .optional()
    .describe('the periodic snapshots behind windowed leaderboards'),
  servers: z
    .array(
      serverStateSchema.extend({
        players: integer.describe('players with a statistics file on this server'),
        online: integer,
        online_status: onlineStatusSchema,
      }),
    )
    .optional()
    .describe('network only: every server'),
});

export const apiIndexSchema = z.object({
  name: z.string(),
  version: z.string(),
  docs: z.string(),
  openapi: z.string(),
});

export const routeIndexSchema = z.object({ routes: z.array(z.string()) });

const listItem = z.object({ uuid, name: z.string(), online: z.boolean(), server: onlineServer });

export const playersSchema = z.object({
  total: integer,
  limit: integer,
  page: integer,
  offset: integer,
  players: z.array(listItem),
  servers: serverStates,
  metadata: z.object({
    generated_at: timestamp,
    execution_time_ms: integer,
    ascending: z.boolean(),
    online_only: z.boolean(),
    search: z.string(),
    server: scopeServer,
  }),
});

const categoryMap = z.record(z.string(), integer);

const playerRecordBaseSchema = z.object({
  uuid,
  name: z.string(),
  online: z.boolean(),
  server: onlineServer,
  readTimestamp: timestamp.describe('when the statistics were last read from disk'),
  summary: z
    .object({
      playTimeTicks: integer,
      playTimeFormatted: z.string(),
      deaths: integer,
      playerKills: integer,
      mobKills: integer,
      damageDealt: integer.describe('tenths of a health point'),
      damageTaken: integer.describe('tenths of a health point'),
      jumps: integer,
      distanceCm: integer,
      distanceKm: twoDecimals,
      chestsOpened: integer,
      itemsCrafted: integer,
      itemsBroken: integer,
      itemsUsed: integer,
      itemsDropped: integer,
      itemsPickedUp: integer,
      blocksMined: integer,
    })
    .optional(),
  stats: z
    .record(z.string(), categoryMap)
    .optional()
    .describe('every statistic: {"<ns>:<category>": {"<ns>:<name>": n}}'),
  servers: serverStates,
  metadata: z.object({
    generated_at: timestamp,
    execution_time_ms: integer,
    summary_enabled: z.boolean(),
    raw_enabled: z.boolean(),
    categories_filter: z.array(z.string()).nullable(),
    server: scopeServer,
  }),
});

export const playerRecordSchema = playerRecordBaseSchema
  .catchall(categoryMap)
  .describe('Also one top-level key per category, e.g. "minecraft:mined": {"minecraft:stone": 12}');

/** Present when the request asked for a window (`since` or `period`). */
const windowSchema = z
  .object({
    from: timestamp.describe(
      'the snapshot gains are measured from: the last one taken at or before the start',
    ),
    complete: z
      .boolean()
      .describe('false when the start is before the first snapshot (measured from the first)'),
  })
  .optional();

const summaryFigures = {
  playtime_ticks: integer,
  playtime_seconds: integer,
  playtime_formatted: z.string(),
  combat: z
    .object({
      deaths: integer,
      player_kills: integer,
      mob_kills: integer,
      damage_dealt: integer.describe('tenths of a health point'),
      damage_taken: integer.describe('tenths of a health point'),
    })
    .optional(),
  movement: z
    .object({
      distance_walked_cm: integer,
      distance_walked_m: twoDecimals,
      distance_sprinted_cm: integer,
      distance_sprinted_m: twoDecimals,
      distance_flown_cm: integer,
      distance_flown_m: twoDecimals,
      distance_swum_cm: integer,
      distance_swum_m: twoDecimals,
      total_distance_cm: integer,
      total_distance_m: twoDecimals,
      total_distance_km: twoDecimals,
      jumps: integer,
    })
    .optional(),
  activity: z
    .object({
      chests_opened: integer,
      items_crafted: integer,
      items_broken: integer,
      items_used: integer,
      items_picked_up: integer,
      items_dropped: integer,
      blocks_mined: integer,
    })
    .optional(),
};

export const playerSummarySchema = z.object({
  uuid,
  name: z.string(),
  online: z.boolean(),
  server: onlineServer,
  window: windowSchema,
  ...summaryFigures,
  per_server: z
    .record(z.string(), z.object(summaryFigures))
    .optional()
    .describe('network only, without ?server: the same figures on each server the player has statistics on'),
  servers: serverStates,
  metadata: z.object({ generated_at: timestamp, execution_time_ms: integer, server: scopeServer }),
});

export const leaderboardSchema = z.object({
  stat: z.string(),
  window: windowSchema,
  total: integer,
  limit: integer,
  offset: integer,
  page: integer,
  entries: z.array(
    z.object({
      rank: integer.describe('dense: equal values share a rank'),
      uuid,
      name: z.string(),
      online: z.boolean(),
      server: onlineServer,
      value: integer,
      formatted: z.string().optional().describe('playtime only, e.g. "1d 2h 30m 5s"'),
    }),
  ),
  servers: serverStates,
  metadata: z.object({
    generated_at: timestamp,
    execution_time_ms: integer,
    ascending: z.boolean(),
    online_only: z.boolean(),
    server: scopeServer,
  }),
});

export type HealthBody = z.infer<typeof healthSchema>;
export type PlayersBody = z.infer<typeof playersSchema>;
/** The record, plus one `"<ns>:<category>"` map per category (keys always hold a colon). */
export type PlayerRecordBody = z.infer<typeof playerRecordBaseSchema> & {
  [category: `${string}:${string}`]: Record<string, number>;
};
export type PlayerSummaryBody = z.infer<typeof playerSummarySchema>;
export type LeaderboardBody = z.infer<typeof leaderboardSchema>;
export type ServerStateBody = z.infer<typeof serverStateSchema>;
