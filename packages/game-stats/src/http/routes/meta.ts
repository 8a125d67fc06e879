/**
 * @module `/api/health`, `/api` and `/api/docs`: what the service is and how it is doing.
 */
import { getHeapStatistics } from 'node:v8';
import type { Hono } from 'hono';
import type { ApiContext } from '../api-context.js';
import { LiveAnswer, requestTarget } from '../fragment-cache.js';
import type { HealthBody } from '../response-schemas.js';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** Path templates exactly as the spec lists them. */
export const routeTemplates = [
  '/api/health',
  '/api/players',
  '/api/player/{uuid}',
  '/api/player/{name}',
  '/api/player/{id}/summary',
  '/api/leaderboard/{stat}',
  '/api/docs',
];

/** Memory is sampled at most this often: reading the RSS costs a system call per request. */
const memorySampleMs = 1_000;

export function registerMetaRoutes(app: Hono, context: ApiContext) {
  let memory = { at: Number.NEGATIVE_INFINITY, usage: process.memoryUsage(), heapMax: 0 };
  const sampledMemory = () => {
    const now = performance.now();
    if (now - memory.at >= memorySampleMs)
      memory = { at: now, usage: process.memoryUsage(), heapMax: getHeapStatistics().heap_size_limit };
    return memory;
  };
  const health = new LiveAnswer(() => JSON.stringify(healthSnapshot(context, sampledMemory())));
  app.get('/api/health', (c) => {
    context.answers?.remember(requestTarget(c.req.raw, c.env), health);
    return c.body(health.render(), 200, { 'content-type': 'application/json' });
  });
  app.get('/api', (c) =>
    c.json({ name: 'game-stats', version: context.version, docs: '/api/docs', openapi: '/api/openapi.json' }),
  );
  app.get('/api/docs', (c) => c.json({ routes: routeTemplates }));
}

function healthSnapshot(
  context: ApiContext,
  { usage: memory, heapMax }: { usage: NodeJS.MemoryUsage; heapMax: number },
): HealthBody {
  const presence = context.presence.snapshot();
  const { counts } = context.index;
  return {
    system: {
      status: presence.source !== 'none' && !presence.connected ? 'degraded' : 'ok',
      timestamp: new Date().toISOString(),
      uptime_seconds: Math.floor((Date.now() - context.startedAt) / 1_000),
      plugin_version: context.version,
      game_version: context.gameVersion() ?? 'unknown',
      server_version: `game-stats/${context.version}`,
      platform_version: `Node.js ${process.version}`,
    },
    players: { online: presence.online, max: presence.max ?? context.maxPlayers },
    memory: {
      used_mb: mb(memory.rss),
      free_mb: Math.max(0, mb(heapMax - memory.heapUsed)),
      max_mb: mb(heapMax),
      heap_used_mb: mb(memory.heapUsed),
      heap_committed_mb: mb(memory.heapTotal),
      heap_max_mb: mb(heapMax),
    },
    features: {
      https_enabled: false,
      compression_enabled: context.config.compression.enabled,
      async_enabled: true,
      rate_limit_enabled: context.config['rate-limit'].enabled,
      api_auth_enabled:
        context.config.security['enable-api-key'] && context.config.security['api-key'].trim() !== '',
      docs_enabled: true,
    },
    executor: { active: context.inFlight.count },
    online_status: {
      source: presence.source,
      connected: presence.connected,
      last_success: presence.lastSuccessAt === null ? null : new Date(presence.lastSuccessAt).toISOString(),
      last_error: presence.lastError,
    },
    index: {
      players: counts.players,
      files: counts.files,
      skipped_files: counts.skippedFiles,
      built_at: new Date(counts.builtAt).toISOString(),
      build_ms: counts.lastBuildMs,
      restored_files: counts.restoredFiles,
    },
  };
}
