/**
 * @module The request pipeline every card endpoint shares: parse the query (kept per URL),
 * render or map the failure to an SVG error card, then set content type, cache headers, ETag
 * and answer 304; finished answers are kept per query or per drawn data version.
 */
import { LRUCache } from 'lru-cache';
import type { DrawnCard } from '../cards/render-memo.js';
import { errorCard } from '../svg/error-card.js';
import { getTheme, type ThemeName, themeNames } from '../themes/index.js';
import { cacheControlFor, errorCacheControl } from './cache-control.js';
import { CardError } from './card-error.js';
import type { CardBody, Endpoint, PreparedRun } from './endpoint.js';
import { etagOf, matchesIfNoneMatch } from './etag.js';
import type { CardServices } from './services.js';

/** A finished answer: kept in the memo for query-only cards, per drawn card for the others. */
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

function successAnswer(endpoint: Endpoint, body: string, cache = endpoint.cache): CardAnswer {
  const headers: Record<string, string> = {
    'content-type': svgContentType,
    'cache-control': cacheControlFor(cache),
    ...securityHeaders,
  };
  // A no-store card changes on every request (a counter): a validator would only mislead.
  if (cache.kind === 'no-store') {
    headers.pragma = 'no-cache';
    headers.expires = '0';
  } else {
    headers.etag = etagOf(body);
  }
  return { status: 200, body, headers };
}

/**
 * The parameters an endpoint reads, first value of each (later duplicates are ignored), and the
 * cache key they make: sorted, so neither unknown parameters nor their order split the cache.
 */
function readQuery(
  url: URL,
  path: string,
  names: ReadonlySet<string>,
): { query: Record<string, string>; key: string } {
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    if (names.has(name) && !(name in query)) query[name] = value;
  }
  const key = `${path}?${new URLSearchParams(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
  return { query, key };
}

function toResponse(found: CardAnswer, request: Request): Response {
  const etag = found.headers.etag;
  if (etag && matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) {
    const { 'content-type': _type, ...headers } = found.headers;
    return new Response(null, { status: 304, headers });
  }
  return new Response(found.body, { status: found.status, headers: found.headers });
}

/**
 * What the memo keeps per query: the finished answer of a query-only card (or of any 400), or
 * the parsed query of a card drawn from fetched data, whose answer depends on the data version.
 */
export type MemoEntry = CardAnswer | PreparedRun;

/** Answers and parsed queries, shared by every endpoint of an app. */
export type AnswerMemo = LRUCache<string, MemoEntry>;

export interface AnswerMemoOptions {
  /** Most entries kept; default 5,000. */
  maxEntries?: number;
  /** Most bytes kept, keys included; default 32 MiB, so large distinct queries cannot exhaust memory. */
  maxBytes?: number;
}

/** Headers, closures and bookkeeping of one entry, in bytes (measured once, rounded up). */
const entryOverheadBytes = 512;

/** An LRU of answers and parsed queries bounded by count and by bytes (strings are UTF-16: 2 bytes a character). */
export function createAnswerMemo(options: AnswerMemoOptions = {}): AnswerMemo {
  return new LRUCache<string, MemoEntry>({
    max: options.maxEntries ?? 5_000,
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    // A parsed query holds the parameter values again, about as many characters as its key.
    sizeCalculation: (entry, key) =>
      entryOverheadBytes +
      2 * key.length +
      2 * (typeof entry === 'function' ? key.length : entry.body.length),
  });
}

interface CardHandlerOptions {
  services: CardServices;
  /** Where answers and parsed queries are kept; none: parse and render every request. */
  memo?: AnswerMemo;
}

/** The fetch-style handler of one endpoint; `env` is the platform's (it tells who the client is). */
export function createCardHandler(
  endpoint: Endpoint,
  options: CardHandlerOptions,
): (request: Request, env?: unknown) => Promise<Response> {
  const { services, memo } = options;
  const readNames = new Set(endpoint.queryNames ?? Object.keys(endpoint.params));
  // Finished answers of cards drawn once per data version: they live as long as the drawn card,
  // which lives as long as its data object, so a refresh (a new object) gets a new answer.
  const finished = new WeakMap<DrawnCard, CardAnswer>();

  function succeed(body: CardBody): CardAnswer {
    if (typeof body === 'string') return successAnswer(endpoint, body);
    let found = finished.get(body);
    if (found === undefined) {
      found = successAnswer(endpoint, body.svg, body.cache);
      finished.set(body, found);
    }
    return found;
  }

  async function run(
    prepared: PreparedRun,
    query: Record<string, string>,
    request: Request,
    env: unknown,
  ): Promise<CardAnswer> {
    const client = services.clientOf(request, env);
    try {
      return succeed(
        await prepared({ services: client === undefined ? services : { ...services, client }, request }),
      );
    } catch (error) {
      if (error instanceof CardError)
        return errorAnswer(error.status, error.message, query, error.retryAfterSeconds);
      services.logger?.error({ err: error, path: endpoint.path }, 'card rendering failed');
      return errorAnswer(500, 'Something went wrong while drawing this card.', query);
    }
  }

  return async (request, env) => {
    // `/badge?x` and `/api/badge?x` share one entry: the path without the prefix is the key.
    const { query, key } = readQuery(new URL(request.url), endpoint.path, readNames);
    let entry = memo?.get(key);
    if (entry === undefined) {
      const prepared = endpoint.prepare(query);
      if (!prepared.ok) entry = errorAnswer(400, prepared.message, query);
      else if (endpoint.pure) entry = await run(prepared.run, query, request, env);
      // Drawn from fetched data: only the parsing is kept; the data layer decides per request.
      else entry = prepared.run;
      if (memo && (typeof entry === 'function' || entry.status < 500)) memo.set(key, entry);
    }
    const found = typeof entry === 'function' ? await run(entry, query, request, env) : entry;
    return toResponse(found, request);
  };
}
