/**
 * @module Aggregator mode: one request to BotBlock's /api/count, which fans out to every list it knows.
 */
import { BotlistsError } from '../errors.js';
import { errorFromResponse, type HttpClient } from '../http/http-client.js';
import type { BotlistRecord, PostReport, Stats } from '../types.js';
import { addResult, emptyReport } from './stats-poster.js';

export const BOTBLOCK_COUNT_URL = 'https://botblock.org/api/count';
/** BotBlock allows one request per 120 s per IP and bot (api-worker ratelimit.js). */
export const BOTBLOCK_WINDOW_MS = 120_000;

interface BotBlockContext {
  http: HttpClient;
  url: string;
  lists: readonly BotlistRecord[];
  tokens: Map<string, string>;
  botId: string;
}

/** Request body: counts plus one key per list id holding that list's token; empty shards omitted. */
export function buildBotBlockBody(
  stats: Stats,
  botId: string,
  tokens: Map<string, string>,
  lists: readonly BotlistRecord[],
) {
  const body: Record<string, unknown> = { bot_id: botId, server_count: stats.serverCount };
  if (stats.shardId !== undefined) body.shard_id = stats.shardId;
  if (stats.shardCount !== undefined) body.shard_count = stats.shardCount;
  if (stats.shards && stats.shards.length > 0) body.shards = stats.shards;
  for (const list of lists) {
    const token = tokens.get(list.id);
    if (token && list.supports.post) body[list.id] = token;
  }
  return body;
}

type Outcomes = Record<string, [number, string, unknown?]>;

function outcomesOf(value: unknown): Outcomes {
  return value && typeof value === 'object' ? (value as Outcomes) : {};
}

/** Sends once, never retries (a retry would only hit the 120 s window), and maps `{success, failure}`. */
export async function postViaBotBlock(ctx: BotBlockContext, stats: Stats): Promise<PostReport> {
  const body = buildBotBlockBody(stats, ctx.botId, ctx.tokens, ctx.lists);
  const res = await ctx.http.send({
    url: ctx.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    listId: 'botblock',
    noRetry: true,
  });
  if (res.status !== 200) throw errorFromResponse(res, 'botblock', 'BotBlock refused the post');
  let parsed: { success?: unknown; failure?: unknown };
  try {
    parsed = JSON.parse(res.body);
  } catch {
    throw new BotlistsError('BotBlock answered with invalid JSON', {
      listId: 'botblock',
      status: res.status,
      body: res.body,
    });
  }
  const report = emptyReport(stats);
  const success = outcomesOf(parsed.success);
  const failure = outcomesOf(parsed.failure);
  for (const list of ctx.lists) {
    if (!list.supports.post) continue;
    if (!ctx.tokens.has(list.id)) {
      addResult(report, { listId: list.id, outcome: 'skipped', status: null, reason: 'no token' });
      continue;
    }
    const ok = success[list.id];
    const bad = failure[list.id];
    if (ok) addResult(report, { listId: list.id, outcome: 'posted', status: ok[0] });
    else if (bad) {
      const status = bad[0] === -1 ? null : bad[0];
      addResult(report, {
        listId: list.id,
        outcome: 'failed',
        status,
        reason: String(bad[1] ?? '').slice(0, 200),
      });
    } else
      addResult(report, {
        listId: list.id,
        outcome: 'skipped',
        status: null,
        reason: 'not handled by BotBlock',
      });
  }
  return report;
}
