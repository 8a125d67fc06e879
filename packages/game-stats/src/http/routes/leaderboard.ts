/**
 * @module `/api/leaderboard/{stat}`: one ranked page of any statistic.
 */
import type { Hono } from 'hono';
import { formatTicks } from '../../format/units.js';
import { type ApiContext, elapsedMs } from '../api-context.js';
import { errorResponse } from '../error-body.js';
import { effectiveLimit, parseOrThrow } from '../parse-request.js';
import { leaderboardQuerySchema, statParam } from '../query-params.js';
import type { LeaderboardBody } from '../response-schemas.js';

export function registerLeaderboardRoute(app: Hono, context: ApiContext) {
  app.get('/api/leaderboard/:stat', (c) => {
    const started = performance.now();
    const statText = parseOrThrow(statParam, c.req.param('stat'), 'stat');
    const query = parseOrThrow(leaderboardQuerySchema, c.req.query(), 'query parameter');
    const stat = context.resolver.resolve(statText);
    if (!stat) return errorResponse(404, `Unknown statistic: ${statText}`);
    const limit = effectiveLimit(query.limit, context.config.pagination);
    const page = query.page ?? 0;
    const ascending = query.order === 'asc';
    const onlineOnly = query.online_only ?? false;
    const { total, entries } = context.directory.leaderboard(stat, { limit, page, ascending, onlineOnly });
    const body: LeaderboardBody = {
      stat: stat.name,
      total,
      limit,
      offset: page * limit,
      page,
      entries: entries.map((entry) =>
        stat.isPlaytime ? { ...entry, formatted: formatTicks(entry.value) } : entry,
      ),
      metadata: {
        generated_at: new Date().toISOString(),
        execution_time_ms: elapsedMs(started),
        ascending,
        online_only: onlineOnly,
      },
    };
    return c.json(body);
  });
}
