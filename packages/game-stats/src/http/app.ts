/**
 * @module The Hono application: security gate, compression, routes, and the spec's error
 * bodies for 400, 404 and 500 (never a stack trace).
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { Logger } from 'pino';
import type { ApiContext } from './api-context.js';
import { errorResponse } from './error-body.js';
import { buildOpenApiDocument } from './openapi.js';
import { BadRequest, NotFound } from './parse-request.js';
import { registerLeaderboardRoute } from './routes/leaderboard.js';
import { registerMetaRoutes } from './routes/meta.js';
import { registerPlayerRoutes } from './routes/player.js';
import { registerPlayersRoute } from './routes/players.js';
import { type ClientAddressReader, securityGate } from './security.js';

interface AppOptions {
  context: ApiContext;
  peerAddress: ClientAddressReader;
  logger?: Logger;
}

export function createApp({ context, peerAddress, logger }: AppOptions): Hono {
  const app = new Hono({ strict: false });
  app.use('*', async (c, next) => {
    context.inFlight.count++;
    try {
      await next();
    } finally {
      context.inFlight.count--;
    }
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use(
    '*',
    securityGate({ security: context.config.security, rateLimit: context.config['rate-limit'], peerAddress }),
  );
  if (context.config.compression.enabled) app.use('*', compress({ encoding: 'gzip' }));

  registerMetaRoutes(app, context);
  registerPlayersRoute(app, context);
  registerPlayerRoutes(app, context);
  registerLeaderboardRoute(app, context);
  const openApi = JSON.stringify(buildOpenApiDocument(context.version, context.network !== undefined));
  app.get('/api/openapi.json', (c) =>
    c.body(openApi, 200, { 'content-type': 'application/json; charset=utf-8' }),
  );

  app.notFound((c) => errorResponse(404, `No endpoint found for path: ${c.req.path}`));
  app.onError((error) => {
    if (error instanceof BadRequest) return errorResponse(400, error.message);
    if (error instanceof NotFound) return errorResponse(404, error.message);
    logger?.error({ err: error }, 'request failed');
    return errorResponse(500, 'Internal server error');
  });
  return app;
}
