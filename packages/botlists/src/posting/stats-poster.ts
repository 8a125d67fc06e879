/**
 * @module Stats fan-out: one request per list with a token, spaced `postSpacingMs` apart, outcomes in a PostReport.
 */
import { BotlistsError } from '../errors.js';
import { type HttpClient, type HttpRequest, sleep } from '../http/http-client.js';
import type { BotlistRecord, PostReport, PostResult, Stats } from '../types.js';
import { buildPostRequest } from './post-request.js';

/** Default gap between two lists (spec §8 `postSpacingMs`). */
export const DEFAULT_POST_SPACING_MS = 1000;

export interface FanOutOptions {
  /** Only these list ids. */
  only?: string[];
  /** Every list but these ids. */
  skip?: string[];
}

export interface StatsPosterContext {
  http: HttpClient;
  lists: () => readonly BotlistRecord[];
  tokens: () => Map<string, string>;
  botId: () => string;
  spacingMs: number;
  /** List ids posted through their legacy `apiPost` even when they have a `metricsPost` route. */
  legacyApi: ReadonlySet<string>;
}

export function emptyReport(stats: Stats): PostReport {
  return { posted: [], failed: [], skipped: [], stats };
}

export function addResult(
  report: Pick<PostReport, 'posted' | 'failed' | 'skipped'>,
  result: PostResult,
): void {
  report[result.outcome].push(result);
}

/** Posts to one list. Never throws for an HTTP or network failure: the result says what happened. */
export async function postToList(
  ctx: StatsPosterContext,
  list: BotlistRecord,
  stats: Stats,
): Promise<PostResult> {
  const token = ctx.tokens().get(list.id);
  if (!token) return { listId: list.id, outcome: 'skipped', status: null, reason: 'no token' };
  const request = buildPostRequest(list, stats, token, ctx.botId(), ctx.legacyApi.has(list.id));
  if (!request)
    return { listId: list.id, outcome: 'skipped', status: null, reason: 'list takes no stats posts' };
  return sendForResult(ctx, list, request);
}

/** Sends one post and says what happened; an HTTP or network failure is a `failed` result, never a throw. */
export async function sendForResult(
  ctx: StatsPosterContext,
  list: BotlistRecord,
  request: HttpRequest,
): Promise<PostResult> {
  try {
    const res = await ctx.http.send(request);
    const ok = res.status >= 200 && res.status < 300;
    const result: PostResult = {
      listId: list.id,
      outcome: ok ? 'posted' : 'failed',
      status: res.status,
      retried: res.retried,
    };
    if (!ok) {
      result.reason = res.body.slice(0, 200) || `HTTP ${res.status}`;
      result.retryAfter = res.retryAfter;
    }
    return result;
  } catch (error) {
    return { listId: list.id, outcome: 'failed', status: null, reason: (error as Error).message };
  }
}

/** Posts to every selected list, sequentially and spaced, so one bot never bursts a shared IP. */
export async function postToAll(
  ctx: StatsPosterContext,
  stats: Stats,
  options: FanOutOptions = {},
): Promise<PostReport> {
  const report = emptyReport(stats);
  await fanOut(
    ctx,
    options,
    report,
    (list) => list.supports.post,
    (list) => postToList(ctx, list, stats),
  );
  return report;
}

/**
 * Posts to every selected list that `takes` the post, sequentially and `spacingMs` apart, so one bot
 * never bursts a shared IP; a selected list without a token is `skipped` with reason `no token`.
 */
export async function fanOut(
  ctx: StatsPosterContext,
  options: FanOutOptions,
  report: Pick<PostReport, 'posted' | 'failed' | 'skipped'>,
  takes: (list: BotlistRecord) => boolean,
  post: (list: BotlistRecord) => Promise<PostResult>,
): Promise<void> {
  const only = options.only ? new Set(options.only) : null;
  const skip = new Set(options.skip ?? []);
  let sentOne = false;
  for (const list of ctx.lists()) {
    if (!takes(list) || (only && !only.has(list.id)) || skip.has(list.id)) continue;
    if (!ctx.tokens().has(list.id)) {
      addResult(report, { listId: list.id, outcome: 'skipped', status: null, reason: 'no token' });
      continue;
    }
    if (sentOne && ctx.spacingMs > 0) await sleep(ctx.spacingMs);
    sentOne = true;
    addResult(report, await post(list));
  }
}

/** Throws when a requested id is not in the registry, so `only: ['topgg ']` typos surface. */
export function assertKnownIds(ids: readonly string[] | undefined, lists: readonly BotlistRecord[]): void {
  for (const id of ids ?? []) {
    if (!lists.some((l) => l.id === id)) throw new BotlistsError(`unknown list id "${id}"`, { listId: id });
  }
}
