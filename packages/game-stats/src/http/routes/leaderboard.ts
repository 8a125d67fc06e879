/**
 * @module `/api/leaderboard/{stat}`: one ranked page of any statistic.
 */
import type { Hono } from 'hono';
import { formatTicks } from '../../format/units.js';
import { windowedStat } from '../../history/windowed-stat.js';
import type { ApiContext, MetadataRest } from '../api-context.js';
import { errorResponse } from '../error-body.js';
import { FragmentCache, requestTarget } from '../fragment-cache.js';
import { effectiveLimit, parseOrThrow } from '../parse-request.js';
import { leaderboardQuerySchema, statParam } from '../query-params.js';
import type { LeaderboardBody } from '../response-schemas.js';
import { networkFields, scopeMetadata, scopeOf, withOnlineServer } from '../server-scope.js';
import { historyReady, requestedWindow, windowBody } from '../window-request.js';

export function registerLeaderboardRoute(app: Hono, context: ApiContext) {
  const cache = new FragmentCache();
  app.get('/api/leaderboard/:stat', async (c) => {
    const started = performance.now();
    const statText = parseOrThrow(statParam, c.req.param('stat'), 'stat');
    const query = parseOrThrow(leaderboardQuerySchema, c.req.query(), 'query parameter');
    const scope = scopeOf(context, query.server);
    await historyReady(query, scope.history);
    const window = requestedWindow(context, query, scope.history);
    const plainStat = context.resolver.resolve(statText);
    if (!plainStat) return errorResponse(404, `Unknown statistic: ${statText}`);
    const stat = window && scope.history ? windowedStat(plainStat, scope.history, window.from) : plainStat;
    const limit = effectiveLimit(query.limit, context.config.pagination);
    const page = query.page ?? 0;
    const ascending = query.order === 'asc';
    const onlineOnly = query.online_only ?? false;
    // A statistic ranked for the first time is ranked in steps, not while every request waits.
    if (!onlineOnly) await scope.directory.prepare(stat, ascending);
    const answer = cache.answer(
      `${scope.server}|${stat.name}|${ascending}|${onlineOnly}|${page}|${limit}`,
      // The whole network's generation: it moves with every server's changes and states.
      context.directory.generation(),
      (): Omit<LeaderboardBody, 'metadata'> => {
        const { total, entries } = scope.directory.leaderboard(stat, {
          limit,
          page,
          ascending,
          onlineOnly,
        });
        return {
          stat: plainStat.name,
          ...(window ? { window: windowBody(window) } : {}),
          total,
          limit,
          offset: page * limit,
          page,
          entries: entries.map((plain) => {
            const entry = withOnlineServer(context, plain);
            return stat.isPlaytime ? { ...entry, formatted: formatTicks(entry.value) } : entry;
          }),
          ...networkFields(context),
        };
      },
      {
        ascending,
        online_only: onlineOnly,
        ...scopeMetadata(context, scope),
      } satisfies MetadataRest<LeaderboardBody>,
    );
    context.answers?.remember(requestTarget(c.req.raw, c.env), answer);
    return c.body(answer.render(started), 200, { 'content-type': 'application/json' });
  });
}
