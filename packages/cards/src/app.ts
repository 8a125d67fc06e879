/**
 * @module `createApp(options)`: the Hono application (pure web standards, so it runs on Node
 * through `readme-cards serve` and on edge runtimes as is).
 */
import { Hono } from 'hono';
import { registerCompatRoutes } from './compat/routes.js';
import type { LogoCatalogue } from './compat/simple-icons-logos.js';
import { endpoints as defaultEndpoints } from './endpoints/index.js';
import { renderGallery } from './gallery/page.js';
import { withoutTrailingSlashes } from './github/api-url.js';
import { withAutoTheme } from './http/auto-theme.js';
import { errorCacheControl } from './http/cache-control.js';
import { type ClientOf, defaultClientOf } from './http/client-address.js';
import type { Endpoint } from './http/endpoint.js';
import { type AnswerMemoOptions, createAnswerMemo, createCardHandler } from './http/pipeline.js';
import type { CardLogger, CardServices, GithubSettings } from './http/services.js';
import { boundVisitorStore, type VisitorLimits } from './store/bounded-visitor-store.js';
import { type CardCache, createMemoryCache } from './store/card-cache.js';
import { createMemoryVisitorStore, type VisitorStore } from './store/visitor-store.js';
import { errorCard } from './svg/error-card.js';

export interface CreateAppOptions {
  /** Visitor counter store; default in-memory (not persistent: pass a real one in production). */
  visitors?: VisitorStore;
  /** Bounds on new visitor counters per client (default 20 an hour); keys are at most 100 bytes. */
  visitorLimits?: VisitorLimits;
  /** Upstream data cache; default an in-process LRU. */
  cache?: CardCache;
  /** GitHub access; defaults: no tokens, `https://api.github.com`, the global fetch. */
  github?: Partial<GithubSettings>;
  /** Clock; default `() => new Date()`. */
  now?: () => Date;
  /**
   * Who a request comes from, for the per-client bounds; default the socket peer on Node and
   * `CF-Connecting-IP` on Cloudflare. Behind another proxy, read its header here.
   */
  clientOf?: ClientOf;
  logger?: CardLogger;
  /**
   * simple-icons logos beyond the ones the cards ship, for shields' `logo=`: the Node entries
   * pass `simpleIconsOnDisk()` (every slug); without one, only the shipped logos are drawn.
   */
  logos?: LogoCatalogue;
  /** Endpoints to serve; default every registered endpoint. */
  endpoints?: readonly Endpoint[];
  /**
   * Rendered answers of query-only cards and parsed queries of the others kept in memory
   * (default 5,000 entries, 16 Mi characters); `false` parses and renders every request.
   */
  memo?: AnswerMemoOptions | false;
}

export const defaultGithubApiUrl = 'https://api.github.com';

/** A cold card costs 1 to 17 calls (most 1 or 2, `/stars` up to 17): 120 a minute lets one client draw dozens a minute. */
const defaultCallsPerClientPerMinute = 120;

function resolveServices(options: CreateAppOptions): CardServices {
  const now = options.now ?? (() => new Date());
  return {
    visitors: boundVisitorStore(options.visitors ?? createMemoryVisitorStore(), options.visitorLimits, () =>
      now().getTime(),
    ),
    cache: options.cache ?? createMemoryCache(),
    github: {
      tokens: options.github?.tokens ?? [],
      apiUrl: withoutTrailingSlashes(options.github?.apiUrl ?? defaultGithubApiUrl),
      fetch: options.github?.fetch ?? ((input, init) => fetch(input, init)),
      callsPerClientPerMinute: options.github?.callsPerClientPerMinute ?? defaultCallsPerClientPerMinute,
    },
    now,
    logger: options.logger,
    clientOf: options.clientOf ?? defaultClientOf,
    logos: options.logos,
  };
}

/** The gallery runs its own inline script and loads only cards from this origin. */
const galleryHeaders = {
  'cache-control': 'public, max-age=300',
  'content-security-policy':
    "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Headers of error cards answered outside an endpoint (unknown path, unexpected failure). */
function errorHeaders(status: number): Record<string, string> {
  return { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': errorCacheControl(status) };
}

/**
 * Builds the application.
 *
 * @example
 * const app = createApp({ visitors: await openVisitorStore('./data/cards.db') });
 * export default { fetch: app.fetch }; // Cloudflare Workers, Bun, Deno
 */
export function createApp(options: CreateAppOptions = {}): Hono {
  const services = resolveServices(options);
  const endpoints = options.endpoints ?? defaultEndpoints;
  const app = new Hono();

  // Like the cards, the service routes also answer under /api.
  const health = { status: 'ok' };
  app.on('GET', ['/healthz', '/api/healthz'], (c) => c.json(health, 200, { 'cache-control': 'no-store' }));

  const memo = options.memo === false ? undefined : createAnswerMemo(options.memo);
  // The URLs of the services we replace. `/` and `/api` are the gallery, unless a `username`
  // makes them github-readme-stats' stats card.
  const gallery = renderGallery(endpoints);
  registerCompatRoutes(
    app,
    (c) => c.html(gallery, 200, galleryHeaders),
    (endpoint) => createCardHandler(withAutoTheme(endpoint), { services, memo }),
  );

  for (const endpoint of endpoints) {
    const handle = createCardHandler(withAutoTheme(endpoint), { services, memo });
    app.get(endpoint.path, (c) => handle(c.req.raw, c.env));
    app.get(`/api${endpoint.path}`, (c) => handle(c.req.raw, c.env));
  }

  app.notFound(
    (c) =>
      new Response(
        errorCard(404, `No card at ${new URL(c.req.url).pathname}. The gallery at / lists every card.`),
        {
          status: 404,
          headers: errorHeaders(404),
        },
      ),
  );
  app.onError((error, c) => {
    services.logger?.error({ err: error, path: new URL(c.req.url).pathname }, 'request failed');
    return new Response(errorCard(500, 'Something went wrong.'), {
      status: 500,
      headers: errorHeaders(500),
    });
  });
  return app;
}
