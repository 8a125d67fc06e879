/**
 * @module `/api/players`: every player sorted by name, with search, online filter and pages.
 */
import type { Hono } from 'hono';
import type { ApiContext, MetadataRest } from '../api-context.js';
import { FragmentCache, requestTarget } from '../fragment-cache.js';
import { effectiveLimit, parseOrThrow } from '../parse-request.js';
import { playersQuerySchema } from '../query-params.js';
import type { PlayersBody } from '../response-schemas.js';
import { networkFields, scopeMetadata, scopeOf, withOnlineServer } from '../server-scope.js';

export function registerPlayersRoute(app: Hono, context: ApiContext) {
  const cache = new FragmentCache();
  app.get('/api/players', (c) => {
    const started = performance.now();
    const query = parseOrThrow(playersQuerySchema, c.req.query(), 'query parameter');
    const limit = effectiveLimit(query.limit, context.config.pagination);
    const page = query.page ?? 0;
    const ascending = (query.order ?? 'asc') === 'asc';
    const onlineOnly = query.online_only ?? false;
    const search = query.search ?? '';
    const scope = scopeOf(context, query.server);
    const answer = cache.answer(
      `${scope.server}|${search}|${ascending}|${onlineOnly}|${page}|${limit}`,
      // The whole network's generation: it moves with every server's changes and states.
      context.directory.generation(),
      (): Omit<PlayersBody, 'metadata'> => {
        const { total, players } = scope.directory.listPlayers({
          limit,
          page,
          ascending,
          onlineOnly,
          search,
        });
        return {
          total,
          limit,
          page,
          offset: page * limit,
          players: players.map(({ uuid, name, online }) => withOnlineServer(context, { uuid, name, online })),
          ...networkFields(context),
        };
      },
      {
        ascending,
        online_only: onlineOnly,
        search,
        ...scopeMetadata(context, scope),
      } satisfies MetadataRest<PlayersBody>,
    );
    context.answers?.remember(requestTarget(c.req.raw, c.env), answer);
    return c.body(answer.render(started), 200, { 'content-type': 'application/json' });
  });
}
