/**
 * @module top.gg API v1 (`https://top.gg/api/v1`, `Authorization: Bearer <token>`): the project's
 * own page, a user's vote, cursor-paginated votes and the commands list. Wire formats as
 * @top-gg/sdk 4 sends them (Top-gg-Community/node-sdk `src/structs/Api.ts`); see the README.
 */
import { BotlistsError } from '../errors.js';
import { type HttpClient, jsonFromResponse } from '../http/http-client.js';
import { type ApplicationCommandJson, assertCommands } from '../posting/commands-poster.js';
import { builtInLists } from '../registry/lists.generated.js';
import { authValue } from '../registry/tokens.js';
import { trimTrailingSlashes } from '../text/trim-slashes.js';

/** top.gg's v1 base as the registry records it (registry-data/lists.json, the one place it is written). */
export const TOPGG_V1_BASE: string = builtInLists.find((l) => l.id === 'top.gg')?.apiBase ?? '';

/** `getSelf()`: the project as top.gg shows it. */
export interface TopggProject {
  id: string;
  name: string;
  platform: string;
  type: string;
  headline: string;
  tags: string[];
  votes: { current: number; total: number };
  review: { score: number; count: number };
}

/** Text per locale, e.g. `{ en: '…', fr: '…' }`. */
export type LocalizedText = Record<string, string>;

/** `editSelf()`: either or both fields, each keyed by locale. */
export interface TopggProjectEdit {
  headline?: LocalizedText;
  content?: LocalizedText;
}

/** A user's latest vote (`getVote`). */
export interface TopggVote {
  votedAt: Date;
  expiresAt: Date;
  weight: number;
}

/** One vote of `getVotes` pages: `userId` is top.gg's id, `platformId` the Discord id. */
export interface TopggListedVote extends TopggVote {
  userId: string;
  platformId: string;
}

export interface TopggVotesPage {
  votes: TopggListedVote[];
  /** Cursor of the next page, or null when top.gg sent none. */
  cursor: string | null;
  /** The next page (throws when `cursor` is null). */
  next(): Promise<TopggVotesPage>;
}

interface TopggV1Context {
  http: HttpClient;
  token: () => string | undefined;
  base?: string;
}

const asString = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

export class TopggV1Client {
  private readonly ctx: TopggV1Context;

  constructor(ctx: TopggV1Context) {
    this.ctx = ctx;
  }

  private async request(method: string, path: string, what: string, body?: unknown): Promise<unknown> {
    const token = this.ctx.token();
    if (!token) throw new BotlistsError(`top.gg ${what} needs a token`, { listId: 'top.gg' });
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: authValue(token, 'Bearer'),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = {
      url: `${trimTrailingSlashes(this.ctx.base ?? TOPGG_V1_BASE)}${path}`,
      method,
      headers,
      listId: 'top.gg',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    const res = await this.ctx.http.send(request);
    if (res.status === 404 && what === 'getVote') return null;
    // A 2xx without a body (204 of editSelf and postCommands) answers nothing.
    if (res.status >= 200 && res.status < 300 && !res.body) return null;
    return jsonFromResponse(res, 'top.gg', `top.gg ${what}`);
  }

  /** `GET /projects/@me`. */
  async getSelf(): Promise<TopggProject> {
    const p = ((await this.request('GET', '/projects/@me', 'getSelf')) ?? {}) as Record<string, unknown>;
    return {
      id: asString(p.id),
      name: asString(p.name),
      platform: asString(p.platform),
      type: asString(p.type),
      headline: asString(p.headline),
      tags: Array.isArray(p.tags) ? p.tags.map(asString) : [],
      votes: { current: Number(p.votes ?? 0), total: Number(p.votes_total ?? 0) },
      review: { score: Number(p.review_score ?? 0), count: Number(p.review_count ?? 0) },
    };
  }

  /** `PATCH /projects/@me` with `{headline, page_content}`, each keyed by locale. */
  async editSelf(edit: TopggProjectEdit): Promise<void> {
    const body: Record<string, LocalizedText> = {};
    if (edit.headline) body.headline = assertLocalized(edit.headline, 'headline');
    if (edit.content) body.page_content = assertLocalized(edit.content, 'content');
    if (Object.keys(body).length === 0) throw new BotlistsError('editSelf: give a headline, content or both');
    await this.request('PATCH', '/projects/@me', 'editSelf', body);
  }

  /** `GET /projects/@me/votes/:id?source=discord|topgg`: the user's latest vote, or null (404). */
  async getVote(userId: string, source: 'discord' | 'topgg' = 'discord'): Promise<TopggVote | null> {
    if (!userId) throw new BotlistsError('getVote: a user id is required');
    const path = `/projects/@me/votes/${encodeURIComponent(userId)}?source=${source}`;
    const v = (await this.request('GET', path, 'getVote')) as Record<string, unknown> | null;
    if (!v) return null;
    return {
      votedAt: new Date(asString(v.created_at)),
      expiresAt: new Date(asString(v.expires_at)),
      weight: Number(v.weight ?? 1),
    };
  }

  /** `GET /projects/@me/votes?startDate=<ISO>`, then `?cursor=<cursor>` for each next page. */
  getVotes(since: Date): Promise<TopggVotesPage> {
    if (!(since instanceof Date) || Number.isNaN(since.getTime()))
      throw new BotlistsError('getVotes: since must be a valid Date');
    return this.votesPage(`startDate=${encodeURIComponent(since.toISOString())}`);
  }

  private async votesPage(query: string): Promise<TopggVotesPage> {
    const page = ((await this.request('GET', `/projects/@me/votes?${query}`, 'getVotes')) ?? {}) as Record<
      string,
      unknown
    >;
    const data = Array.isArray(page.data) ? (page.data as Record<string, unknown>[]) : [];
    const cursor = typeof page.cursor === 'string' && page.cursor !== '' ? page.cursor : null;
    return {
      votes: data.map((v) => ({
        userId: asString(v.user_id),
        platformId: asString(v.platform_id),
        votedAt: new Date(asString(v.created_at)),
        expiresAt: new Date(asString(v.expires_at)),
        weight: Number(v.weight ?? 1),
      })),
      cursor,
      next: () => {
        if (cursor === null) return Promise.reject(new BotlistsError('getVotes: no next page'));
        return this.votesPage(`cursor=${encodeURIComponent(cursor)}`);
      },
    };
  }

  /** `PUT /projects/@me/commands` with the array of application commands (not empty). */
  async postCommands(commands: readonly ApplicationCommandJson[]): Promise<void> {
    assertCommands(commands);
    await this.request('PUT', '/projects/@me/commands', 'postCommands', commands);
  }
}

function assertLocalized(text: LocalizedText, field: string): LocalizedText {
  if (typeof text !== 'object' || text === null || Array.isArray(text) || Object.keys(text).length === 0)
    throw new BotlistsError(`editSelf: ${field} must map at least one locale to its text, e.g. { en: '…' }`);
  for (const [locale, value] of Object.entries(text))
    if (typeof value !== 'string') throw new BotlistsError(`editSelf: ${field}.${locale} must be a string`);
  return text;
}
