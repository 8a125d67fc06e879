/**
 * @module The request pipeline every card endpoint shares: parse the query, render or map the
 * failure to an SVG error card, then set content type, cache headers, ETag and answer 304.
 */
import { LRUCache } from 'lru-cache';
import { errorCard } from '../svg/error-card.js';
import { getTheme, type ThemeName, themeNames } from '../themes/index.js';
import { cacheControlFor, errorCacheControl } from './cache-control.js';
import { CardError } from './card-error.js';
import type { Endpoint } from './endpoint.js';
import { etagOf, matchesIfNoneMatch } from './etag.js';
import type { CardServices } from './services.js';

/** A finished answer, kept in memory for pure endpoints. */
export interface CardAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * SVGs are images: nothing in them may run or load anything (inline styles only), which
 * also protects anyone who opens a card URL directly in a browser.
 */
const securityHeaders = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  'x-content-type-options': 'nosniff',
};

const svgContentType = 'image/svg+xml; charset=utf-8';

const knownThemes = new Set<string>(themeNames);

/** The theme an error card is drawn in: the requested one when valid. */
function errorTheme(query: Record<string, string>) {
  const requested = query.theme;
  return getTheme(requested && knownThemes.has(requested) ? (requested as ThemeName) : 'github-dark');
}

function errorAnswer(
  status: number,
  message: string,
  query: Record<string, string>,
  retryAfter?: number,
): CardAnswer {
  const body = errorCard(status, message, errorTheme(query));
  const headers: Record<string, string> = {
    'content-type': svgContentType,
    'cache-control': errorCacheControl(status),
    ...securityHeaders,
  };
  if (retryAfter !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfter)));
  if (headers['cache-control'] !== 'no-store') headers.etag = etagOf(body);
  return { status, body, headers };
}

function successAnswer(endpoint: Endpoint, body: string): CardAnswer {
  const headers: Record<string, string> = {
    'content-type': svgContentType,
    'cache-control': cacheControlFor(endpoint.cache),
    ...securityHeaders,
  };
  // A no-store card changes on every request (a counter): a validator would only mislead.
  if (endpoint.cache.kind === 'no-store') {
    headers.pragma = 'no-cache';
    headers.expires = '0';
  } else {
    headers.etag = etagOf(body);
  }
  return { status: 200, body, headers };
}

async function answer(
  endpoint: Endpoint,
  query: Record<string, string>,
  request: Request,
  services: CardServices,
): Promise<CardAnswer> {
  const prepared = endpoint.prepare(query);
  if (!prepared.ok) return errorAnswer(400, prepared.message, query);
  try {
    return successAnswer(endpoint, await prepared.run({ services, request }));
  } catch (error) {
    if (error instanceof CardError)
      return errorAnswer(error.status, error.message, query, error.retryAfterSeconds);
    services.logger?.error({ err: error, path: endpoint.path }, 'card rendering failed');
    return errorAnswer(500, 'Something went wrong while drawing this card.', query);
  }
}

/** First value of each parameter (later duplicates are ignored). */
function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!(name in query)) query[name] = value;
  }
  return query;
}

function toResponse(found: CardAnswer, request: Request): Response {
  const etag = found.headers.etag;
  if (etag && matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) {
    const { 'content-type': _type, ...headers } = found.headers;
    return new Response(null, { status: 304, headers });
  }
  return new Response(found.body, { status: found.status, headers: found.headers });
}

/** Rendered answers of pure endpoints, shared by every endpoint of an app. */
export type AnswerMemo = LRUCache<string, CardAnswer>;

export interface AnswerMemoOptions {
  /** Most answers kept; default 5,000. */
  maxEntries?: number;
  /** Most characters of SVG kept; default 16 Mi, so large distinct queries cannot exhaust memory. */
  maxCharacters?: number;
}

/** An LRU of rendered answers bounded by count and by size. */
export function createAnswerMemo(options: AnswerMemoOptions = {}): AnswerMemo {
  return new LRUCache<string, CardAnswer>({
    max: options.maxEntries ?? 5_000,
    maxSize: options.maxCharacters ?? 16 * 1024 * 1024,
    // Headers and bookkeeping weigh about as much as 256 characters.
    sizeCalculation: (found) => found.body.length + 256,
  });
}

export interface CardHandlerOptions {
  services: CardServices;
  /** Where pure endpoints keep rendered answers; none: render every request. */
  memo?: AnswerMemo;
}

/** The fetch-style handler of one endpoint. */
export function createCardHandler(
  endpoint: Endpoint,
  options: CardHandlerOptions,
): (request: Request) => Promise<Response> {
  const memo = endpoint.pure ? options.memo : undefined;
  return async (request) => {
    const url = new URL(request.url);
    // `/badge?x` and `/api/badge?x` share one entry: the path without the prefix is the key.
    const key = `${endpoint.path}${url.search}`;
    let found = memo?.get(key);
    if (!found) {
      found = await answer(endpoint, queryOf(url), request, options.services);
      if (memo && found.status < 500) memo.set(key, found);
    }
    return toResponse(found, request);
  };
}
