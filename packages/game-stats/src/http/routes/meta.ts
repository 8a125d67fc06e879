/**
 * @module `/api/health`, `/api` and `/api/docs`: what the service is and how it is doing.
 */
import { getHeapStatistics } from 'node:v8';
import type { Hono } from 'hono';
import type { PresenceSnapshot } from '../../online/presence.js';
import type { ApiContext } from '../api-context.js';
import { LiveAnswer, requestTarget } from '../fragment-cache.js';
import type { HealthBody } from '../response-schemas.js';
import { type NetworkServer, serverState } from '../server-scope.js';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** Path templates exactly as the spec lists them. */
const routeTemplates = [
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
  const health = new LiveAnswer(healthText(context, sampledMemory));
  app.get('/api/health', async (c) => {
    // Its history figures are those of the restored history (only right after a start does this wait).
    await context.history?.whenReady();
    context.answers?.remember(requestTarget(c.req.raw, c.env), health);
    return c.body(health.render(), 200, { 'content-type': 'application/json' });
  });
  app.get('/api', (c) =>
    c.json({ name: 'game-stats', version: context.version, docs: '/api/docs', openapi: '/api/openapi.json' }),
  );
  app.get('/api/docs', (c) => c.json({ routes: routeTemplates }));
}

interface MemorySample {
  at: number;
  usage: NodeJS.MemoryUsage;
  heapMax: number;
}

/**
 * The health body's text. Everything in it but the timestamp moves at most once a second or
 * on a change (memory sample, uptime, a poll, the index, requests in flight), so the rest is
 * serialised again only then and each answer splices in a fresh timestamp: serialising the
 * whole body each time made health the slowest route to serve again.
 */
function healthText(context: ApiContext, sampledMemory: () => MemorySample): () => string {
  let made: { head: string; tail: string; inputs: unknown[] } | undefined;
  return () => {
    const memory = sampledMemory();
    const { counts } = context.index;
    const uptime = Math.floor((Date.now() - context.startedAt) / 1_000);
    const inputs = [
      uptime,
      memory.at,
      context.presence.polls,
      context.presence.generation,
      context.index.generation,
      counts.players,
      counts.files,
      counts.skippedFiles,
      context.inFlight.count,
      context.gameVersion(),
    ];
    if (!made || inputs.some((input, index) => input !== made!.inputs[index])) {
      const text = JSON.stringify(healthSnapshot(context, memory, uptime));
      const at = text.indexOf(timestampSlot) + timestampSlot.length - 1;
      made = { head: text.slice(0, at), tail: text.slice(at), inputs };
    }
    return `${made.head}${new Date().toISOString()}${made.tail}`;
  };
}

/** Where the timestamp goes: the first string of the body, serialised empty. */
const timestampSlot = '"timestamp":""';

/** An online source unreachable; in a network, also a server folder unreadable. */
function degraded(context: ApiContext, presence: PresenceSnapshot): boolean {
  if (presence.source !== 'none' && !presence.connected) return true;
  return context.network?.servers.some((member) => !member.view.folder.readable) ?? false;
}

function healthSnapshot(
  context: ApiContext,
  { usage: memory, heapMax }: MemorySample,
  uptime: number,
): HealthBody {
  const presence = context.presence.snapshot();
  const { counts } = context.index;
  return {
    system: {
      status: degraded(context, presence) ? 'degraded' : 'ok',
      timestamp: '',
      uptime_seconds: uptime,
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
    online_status: onlineStatus(presence),
    index: {
      players: counts.players,
      files: counts.files,
      skipped_files: counts.skippedFiles,
      built_at: new Date(counts.builtAt).toISOString(),
      build_ms: counts.lastBuildMs,
      restored_files: counts.restoredFiles,
    },
    ...(context.history ? { history: context.history.status() } : {}),
    ...(context.network ? { servers: context.network.servers.map(serverHealth) } : {}),
  };
}

function serverHealth(member: NetworkServer) {
  const presence = member.presence.snapshot();
  return {
    ...serverState(member),
    players: member.view.players.size,
    online: presence.online,
    online_status: onlineStatus(presence),
  };
}

function onlineStatus(presence: PresenceSnapshot): HealthBody['online_status'] {
  return {
    source: presence.source,
    connected: presence.connected,
    last_success: presence.lastSuccessAt === null ? null : new Date(presence.lastSuccessAt).toISOString(),
    last_error: presence.lastError,
  };
}
