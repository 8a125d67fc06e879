/**
 * @module `/api/players`: every player sorted by name, with search, online filter and pages.
 */
import type { Hono } from 'hono';
import { type ApiContext, elapsedMs } from '../api-context.js';
import { effectiveLimit, parseOrThrow } from '../parse-request.js';
import { playersQuerySchema } from '../query-params.js';
import type { PlayersBody } from '../response-schemas.js';

export function registerPlayersRoute(app: Hono, context: ApiContext) {
  app.get('/api/players', (c) => {
    const started = performance.now();
    const query = parseOrThrow(playersQuerySchema, c.req.query(), 'query parameter');
    const limit = effectiveLimit(query.limit, context.config.pagination);
    const page = query.page ?? 0;
    const ascending = (query.order ?? 'asc') === 'asc';
    const onlineOnly = query.online_only ?? false;
    const search = query.search ?? '';
    const { total, players } = context.directory.listPlayers({ limit, page, ascending, onlineOnly, search });
    const body: PlayersBody = {
      total,
      limit,
      page,
      offset: page * limit,
      players: players.map(({ uuid, name, online }) => ({ uuid, name, online })),
      metadata: {
        generated_at: new Date().toISOString(),
        execution_time_ms: elapsedMs(started),
        ascending,
        online_only: onlineOnly,
        search,
      },
    };
    return c.json(body);
  });
}
