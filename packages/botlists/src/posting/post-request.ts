/**
 * @module The exact wire request of a stats post for one list: URL, method, headers and body bytes.
 */
import type { HttpRequest } from '../http/http-client.js';
import { authValue } from '../registry/tokens.js';
import type { BotlistRecord, Stats } from '../types.js';

/** Replaces every `:id` of a registry URL template with the URL-encoded bot id. */
export function applyId(template: string, botId: string): string {
  return template.replaceAll(':id', encodeURIComponent(botId));
}

/**
 * JSON body of a stats post in the list's own field names. An empty `shards` array is omitted:
 * top.gg reads `shards: []` as zero servers (spec §8).
 */
export function buildPostBody(list: BotlistRecord, stats: Stats): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (list.postField) body[list.postField] = stats.serverCount;
  if (list.shardField && stats.shardCount !== undefined) body[list.shardField] = stats.shardCount;
  if (list.shardIdField && stats.shardId !== undefined) body[list.shardIdField] = stats.shardId;
  if (list.shardsArrayField && stats.shards && stats.shards.length > 0)
    body[list.shardsArrayField] = stats.shards;
  return body;
}

/**
 * The full request for one list, or null when the list takes no stats posts. A list with a
 * `metricsPost` route (top.gg v1) gets it unless `legacy` or the stats are one shard's own count.
 */
export function buildPostRequest(
  list: BotlistRecord,
  stats: Stats,
  token: string,
  botId: string,
  legacy = false,
): HttpRequest | null {
  const metrics = list.metricsPost;
  if (metrics && list.postField && !legacy && stats.shardId === undefined) {
    // Totals only: v1 metrics take neither a shard id (excluded above) nor a per-shard array.
    const body = buildPostBody(list, { serverCount: stats.serverCount, shardCount: stats.shardCount });
    return {
      url: new URL(applyId(metrics.url, botId)).href,
      method: metrics.method,
      headers: {
        [list.authHeader ?? 'Authorization']: authValue(token, metrics.authScheme),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      listId: list.id,
    };
  }
  if (!list.apiPost || !list.postField) return null;
  const url = new URL(applyId(list.apiPost, botId));
  const headers: Record<string, string> = {};
  if (list.authHeader && !list.tokenBodyField) headers[list.authHeader] = authValue(token, list.authScheme);
  const request: HttpRequest = { url: url.href, method: list.postMethod ?? 'POST', headers, listId: list.id };
  if (list.countInQuery) {
    url.searchParams.set(list.postField, String(stats.serverCount));
    request.url = url.href;
    return request;
  }
  const body = buildPostBody(list, stats);
  if (list.tokenBodyField) body[list.tokenBodyField] = token;
  headers['content-type'] = 'application/json';
  request.body = JSON.stringify(body);
  return request;
}
