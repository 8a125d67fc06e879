/**
 * @module A loopback BotBlock /api/count: its validation (400 before the limit), its 120 s limit per IP and bot, its answer shape.
 */
import { RecordingServer, type ScriptedReply } from './recording-server.js';

const COUNT_KEYS = new Set(['bot_id', 'server_count', 'shard_id', 'shard_count', 'shards']);
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);

export function createFakeBotBlock(now: () => number = Date.now) {
  const lastByKey = new Map<string, number>();
  return new RecordingServer((req): ScriptedReply => {
    if (req.method !== 'POST' || req.url !== '/api/count') return { status: 404, body: '{"error":true}' };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body);
    } catch {
      return { status: 400, body: '{"error":true,"message":"invalid JSON"}' };
    }
    const problems: string[] = [];
    if (typeof body.bot_id !== 'string' || !/^\d{17,20}$/.test(body.bot_id)) problems.push('bot_id');
    if (!isInt(body.server_count)) problems.push('server_count');
    if (body.shard_id != null && !isInt(body.shard_id)) problems.push('shard_id');
    if (body.shard_count != null && !isInt(body.shard_count)) problems.push('shard_count');
    if (body.shards != null && !(Array.isArray(body.shards) && body.shards.every(isInt)))
      problems.push('shards');
    if (problems.length)
      return {
        status: 400,
        body: JSON.stringify({ error: true, status: 400, message: `invalid: ${problems.join(', ')}` }),
      };
    const key = `POST /api/count ${req.headers['cf-connecting-ip'] ?? '127.0.0.1'} ${body.bot_id}`;
    const last = lastByKey.get(key);
    if (last !== undefined && now() - last < 120_000) {
      const retry = Math.ceil((120_000 - (now() - last)) / 1000);
      return {
        status: 429,
        headers: {
          'retry-after': String(retry),
          'x-rate-limit-reset': String(Math.floor((last + 120_000) / 1000)),
        },
        body: JSON.stringify({
          error: true,
          status: 429,
          retry_after: retry,
          ratelimit_reset: Math.floor((last + 120_000) / 1000),
        }),
      };
    }
    lastByKey.set(key, now());
    const success: Record<string, unknown> = {};
    const failure: Record<string, unknown> = {};
    const payload = JSON.stringify({ server_count: body.server_count });
    for (const [id, token] of Object.entries(body)) {
      if (COUNT_KEYS.has(id)) continue;
      if (String(token).startsWith('good')) success[id] = [200, '{"ok":true}', payload];
      else if (String(token).startsWith('slow')) failure[id] = [-1, 'Timeout after 10s', payload];
      else failure[id] = [401, '{"error":"Unauthorized"}', payload];
    }
    return { status: 200, body: JSON.stringify({ success, failure }) };
  });
}
