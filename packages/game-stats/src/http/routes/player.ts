/**
 * @module `/api/player/{id}` (full record) and `/api/player/{id}/summary` (snake_case digest).
 */
import type { Handler, Hono } from 'hono';
import type { z } from 'zod';
import {
  centimetresToKilometres,
  centimetresToMetres,
  formatTicks,
  ticksPerSecond,
} from '../../format/units.js';
import { gainedStats } from '../../history/windowed-stat.js';
import { type CompactStats, categoryTotal, statValue, unpackStats } from '../../index/compact-stats.js';
import type { StatKeyTable } from '../../index/stat-key-table.js';
import type { PlayerRef } from '../../query/directory.js';
import { computeFigures, type StatReader } from '../../stats/figures.js';
import { withNamespace } from '../../stats/stat-keys.js';
import type { ApiContext } from '../api-context.js';
import { errorResponse, statsNotFoundBody } from '../error-body.js';
import { FragmentCache, requestTarget } from '../fragment-cache.js';
import { parseOrThrow } from '../parse-request.js';
import { playerIdParam, playerQuerySchema, summaryQuerySchema } from '../query-params.js';
import type { PlayerRecordBody, PlayerSummaryBody } from '../response-schemas.js';
import {
  type Network,
  networkFields,
  type Scope,
  scopeMetadata,
  scopeOf,
  withOnlineServer,
} from '../server-scope.js';
import { historyReady, type RequestedWindow, requestedWindow, windowBody } from '../window-request.js';

/**
 * Shared shape of both player routes: validate the query and id, 404 for an unknown player,
 * the soft `Stats not found` for a known player without statistics, else the rendered body
 * (cached per player, query and generation) followed by fresh metadata.
 */
function playerRoute<Schema extends z.ZodType<{ server?: string; since?: string; period?: string }>>(
  context: ApiContext,
  route: string,
  querySchema: Schema,
  render: (
    player: PlayerRef,
    stats: CompactStats,
    readAt: number,
    query: z.output<Schema>,
    window: RequestedWindow | null,
    scope: Scope,
  ) => object,
  metadataFlags: (query: z.output<Schema>) => object = () => ({}),
  windowOf: (query: z.output<Schema>, scope: Scope) => RequestedWindow | null = () => null,
): Handler {
  const cache = new FragmentCache();
  return async (c) => {
    const started = performance.now();
    const id = c.req.param('id') ?? '';
    const query = parseOrThrow(querySchema, c.req.query(), 'query parameter');
    const scope = scopeOf(context, query.server);
    await historyReady(query, scope.history);
    const window = windowOf(query, scope);
    const player = scope.directory.find(parseOrThrow(playerIdParam, id, 'player id'));
    if (!player) return errorResponse(404, `Player not found: ${id}`);
    const indexed = player.indexed;
    const stats = indexed?.stats;
    if (!indexed || !stats) return c.json(statsNotFoundBody);
    const answer = cache.answer(
      `${route}|${player.uuid}|${JSON.stringify(query)}|${window?.from}|${window?.complete}`,
      // The whole network's generation: it moves with every server's changes and states.
      context.directory.generation(),
      () => ({
        ...render(withOnlineServer(context, player), stats, indexed.readAt, query, window, scope),
        ...networkFields(context),
      }),
      { ...metadataFlags(query), ...scopeMetadata(context, scope) },
    );
    context.answers?.remember(requestTarget(c.req.raw, c.env), answer);
    return c.body(answer.render(started), 200, { 'content-type': 'application/json' });
  };
}

export function registerPlayerRoutes(app: Hono, context: ApiContext) {
  const keys = context.index.keys;
  const recordOptions = (query: z.output<typeof playerQuerySchema>) => ({
    summary: query.summary ?? true,
    raw: query.raw ?? true,
    categories: query.categories ?? null,
  });
  app.get(
    '/api/player/:id',
    playerRoute(
      context,
      'record',
      playerQuerySchema,
      (player, stats, readAt, query) => playerRecord(player, stats, readAt, keys, recordOptions(query)),
      (query) => {
        const options = recordOptions(query);
        return {
          summary_enabled: options.summary,
          raw_enabled: options.raw,
          categories_filter: options.categories,
        };
      },
    ),
  );
  app.get(
    '/api/player/:id/summary',
    playerRoute(
      context,
      'summary',
      summaryQuerySchema,
      (player, stats, _readAt, query, window, scope) => {
        const sections = {
          combat: query.combat ?? true,
          movement: query.movement ?? true,
          activity: query.activity ?? true,
        };
        const perServer =
          context.network && scope.server === null
            ? perServerSummaries(context.network, player.uuid, keys, sections, window)
            : undefined;
        const breakdown = perServer ? { per_server: perServer } : {};
        if (!window || !scope.history)
          return { ...playerSummary(player, stats, keys, sections), ...breakdown };
        const gained = gainedStats(scope.history.recordAt(player.uuid, window.from), stats);
        return { ...playerSummary(player, gained, keys, sections), window: windowBody(window), ...breakdown };
      },
      undefined,
      (query, scope) => requestedWindow(context, query, scope.history),
    ),
  );
}

type Sections = { combat: boolean; movement: boolean; activity: boolean };

/**
 * The summary figures of a player on each server of a network where they have statistics (over
 * the same window, measured from that server's own history).
 */
function perServerSummaries(
  network: Network,
  uuid: string,
  keys: StatKeyTable,
  sections: Sections,
  window: RequestedWindow | null,
): Record<string, SummaryFigures> {
  const breakdown: Record<string, SummaryFigures> = {};
  for (const member of network.servers) {
    const stats = member.view.players.get(uuid)?.stats;
    if (!stats) continue;
    if (!window || !member.history) {
      breakdown[member.view.name] = summaryFigures(stats, keys, sections);
      continue;
    }
    const from = member.history.windowStart(window.asked).from;
    breakdown[member.view.name] = summaryFigures(
      gainedStats(member.history.recordAt(uuid, from), stats),
      keys,
      sections,
    );
  }
  return breakdown;
}

/** Reads a player's compact statistics through short names. */
function statReader(stats: CompactStats, keys: StatKeyTable): StatReader {
  return {
    custom: (key) => {
      const id = keys.find('minecraft:custom', withNamespace(key));
      return id === undefined ? 0 : statValue(stats, id);
    },
    categoryTotal: (category) => {
      const id = keys.findCategory(withNamespace(category));
      return id === undefined ? 0 : categoryTotal(stats, id, keys);
    },
  };
}

function playerRecord(
  player: PlayerRef & { server?: string | null },
  stats: CompactStats,
  readAt: number,
  keys: StatKeyTable,
  options: { summary: boolean; raw: boolean; categories: string[] | null },
): Omit<PlayerRecordBody, 'metadata'> {
  const figures = computeFigures(statReader(stats, keys));
  const body = {
    uuid: player.uuid,
    name: player.name,
    online: player.online,
    ...(player.server === undefined ? {} : { server: player.server }),
    readTimestamp: new Date(readAt).toISOString(),
  } as Omit<PlayerRecordBody, 'metadata'>;
  if (options.summary) {
    body.summary = {
      playTimeTicks: figures.playTimeTicks,
      playTimeFormatted: formatTicks(figures.playTimeTicks),
      deaths: figures.deaths,
      playerKills: figures.playerKills,
      mobKills: figures.mobKills,
      damageDealt: figures.damageDealt,
      damageTaken: figures.damageTaken,
      jumps: figures.jumps,
      distanceCm: figures.distanceCm,
      distanceKm: centimetresToKilometres(figures.distanceCm),
      chestsOpened: figures.chestsOpened,
      itemsCrafted: figures.itemsCrafted,
      itemsBroken: figures.itemsBroken,
      itemsUsed: figures.itemsUsed,
      itemsDropped: figures.itemsDropped,
      itemsPickedUp: figures.itemsPickedUp,
      blocksMined: figures.blocksMined,
    };
  }
  if (options.raw) {
    const filter = options.categories;
    const dump = unpackStats(stats, keys, filter ? (category) => filter.includes(category) : undefined);
    Object.assign(body, dump);
    body.stats = dump;
  }
  return body;
}

function playerSummary(
  player: PlayerRef & { server?: string | null },
  stats: CompactStats,
  keys: StatKeyTable,
  sections: Sections,
): Omit<PlayerSummaryBody, 'metadata'> {
  const { uuid, name, online, server } = player;
  const identity = server === undefined ? { uuid, name, online } : { uuid, name, online, server };
  return { ...identity, ...summaryFigures(stats, keys, sections) };
}

type SummaryFigures = Omit<
  PlayerSummaryBody,
  'metadata' | 'uuid' | 'name' | 'online' | 'server' | 'window' | 'per_server' | 'servers'
>;

function summaryFigures(stats: CompactStats, keys: StatKeyTable, sections: Sections): SummaryFigures {
  const figures = computeFigures(statReader(stats, keys));
  const seconds = Math.floor(figures.playTimeTicks / ticksPerSecond);
  const body: SummaryFigures = {
    playtime_ticks: figures.playTimeTicks,
    playtime_seconds: seconds,
    playtime_formatted: formatTicks(figures.playTimeTicks),
  };
  if (sections.combat) {
    body.combat = {
      deaths: figures.deaths,
      player_kills: figures.playerKills,
      mob_kills: figures.mobKills,
      damage_dealt: figures.damageDealt,
      damage_taken: figures.damageTaken,
    };
  }
  if (sections.movement) {
    body.movement = {
      distance_walked_cm: figures.walkedCm,
      distance_walked_m: centimetresToMetres(figures.walkedCm),
      distance_sprinted_cm: figures.sprintedCm,
      distance_sprinted_m: centimetresToMetres(figures.sprintedCm),
      distance_flown_cm: figures.flownCm,
      distance_flown_m: centimetresToMetres(figures.flownCm),
      distance_swum_cm: figures.swumCm,
      distance_swum_m: centimetresToMetres(figures.swumCm),
      total_distance_cm: figures.distanceCm,
      total_distance_m: centimetresToMetres(figures.distanceCm),
      total_distance_km: centimetresToKilometres(figures.distanceCm),
      jumps: figures.jumps,
    };
  }
  if (sections.activity) {
    body.activity = {
      chests_opened: figures.chestsOpened,
      items_crafted: figures.itemsCrafted,
      items_broken: figures.itemsBroken,
      items_used: figures.itemsUsed,
      items_picked_up: figures.itemsPickedUp,
      items_dropped: figures.itemsDropped,
      blocks_mined: figures.blocksMined,
    };
  }
  return body;
}
