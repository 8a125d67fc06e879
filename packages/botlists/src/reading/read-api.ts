/**
 * @module Reading APIs of the lists: bot data, vote counts, vote checks, search, widget and page URLs.
 */
import { BotlistsError } from '../errors.js';
import { type HttpClient, jsonFromResponse } from '../http/http-client.js';
import { applyId } from '../posting/post-request.js';
import { authValue } from '../registry/tokens.js';
import type { BotlistRecord, UniversalBot } from '../types.js';
import { asBoolean, pick } from './field-paths.js';
import { UniversalParser } from './universal-parser.js';

export interface ReadContext {
  http: HttpClient;
  token: string | undefined;
  now: () => number;
}

async function getJson(
  ctx: ReadContext,
  list: BotlistRecord,
  url: string,
  what: string,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (list.readNeedsAuth) {
    if (!ctx.token) throw new BotlistsError(`${list.id} needs a token for ${what}`, { listId: list.id });
    headers[list.authHeader ?? 'Authorization'] = authValue(ctx.token, list.authScheme);
  }
  const res = await ctx.http.send({ url, headers, listId: list.id });
  if (res.status === 404 && what === 'hasVoted') return { status: 404, json: null };
  return { status: res.status, json: jsonFromResponse(res, list.id, `${list.id} ${what}`) };
}

export async function fetchBot(ctx: ReadContext, list: BotlistRecord, botId: string): Promise<UniversalBot> {
  if (!list.apiGet) throw new BotlistsError(`${list.id} has no bot API`, { listId: list.id });
  const { json } = await getJson(ctx, list, applyId(list.apiGet, botId), 'fetchBot');
  return UniversalParser.parseBot(list, json, ctx.now());
}

export async function fetchVotes(
  ctx: ReadContext,
  list: BotlistRecord,
  botId: string,
): Promise<number | null> {
  if (!list.apiGet) return null;
  const { json } = await getJson(ctx, list, applyId(list.apiGet, botId), 'fetchVotes');
  return UniversalParser.parseVotes(list, json);
}

/** true / false from the list's vote check, or null when the list has none. */
export async function hasVoted(
  ctx: ReadContext,
  list: BotlistRecord,
  botId: string,
  userId: string,
): Promise<boolean | null> {
  if (!list.apiVoted) return null;
  const url = applyId(list.apiVoted, botId).replaceAll(':userId', encodeURIComponent(userId));
  const { status, json } = await getJson(ctx, list, url, 'hasVoted');
  if (status === 404) return false;
  return asBoolean(pick(json, ['voted', 'hasVoted', 'has_voted', 'data.voted'])) ?? false;
}

export async function searchBots(
  ctx: ReadContext,
  list: BotlistRecord,
  query: string,
  limit: number,
): Promise<UniversalBot[]> {
  if (!list.apiSearch) throw new BotlistsError(`${list.id} has no search API`, { listId: list.id });
  const size = Math.min(100, Math.max(1, Math.floor(limit)));
  const url = list.apiSearch
    .replaceAll(':query', encodeURIComponent(query))
    .replaceAll(':limit', String(size));
  const { json } = await getJson(ctx, list, url, 'searchBots');
  return UniversalParser.parseBots(list, json, ctx.now()).slice(0, size);
}
