/**
 * @module The paths of the services readme-cards replaces, served beside our own: `/api`
 * (stats), `/api/top-langs`, `/api/pin`, `/api/gist`, `/api/wakatime`, `/icons`, `/ghpvc/` and
 * `/badge/<label>-<message>-<color>`, each also without or with the `/api` prefix. Each route
 * hands the request to a compat endpoint, so parsing, caching headers, ETags and error cards
 * are those of every other card.
 */
import type { Context, Hono, HonoRequest } from 'hono';
import type { Endpoint } from '../http/endpoint.js';
import {
  githubReadmeStatsCard,
  githubReadmeStatsGist,
  githubReadmeStatsPin,
  githubReadmeStatsTopLanguages,
  githubReadmeStatsWakatime,
} from './github-readme-stats.js';
import { profileViewsCounter } from './profile-views.js';
import { badgePathParameter, shieldsStaticBadge } from './shields-badge.js';
import { skillIconsRow } from './skill-icons.js';

interface CompatRoute {
  /** Paths served, exactly as written (list the `/api` form too). */
  paths: readonly string[];
  endpoint: Endpoint;
  /** Serve only when this holds; otherwise `otherwise` answers (the gallery at `/` and `/api`). */
  when?: (request: HonoRequest) => boolean;
  /** The query string the endpoint reads, built from the URL (a path form); default the URL's own. */
  query?: (url: URL) => string;
}

/** A path and its `/api` twin, each also with a trailing slash (their READMEs write both). */
function both(path: string): string[] {
  return [path, `${path}/`, `/api${path}`, `/api${path}/`];
}

const compatRoutes: readonly CompatRoute[] = [
  {
    // github-readme-stats' stats card is `/api?username=`; without a username, the gallery.
    paths: ['/', '/api', '/api/'],
    endpoint: githubReadmeStatsCard,
    when: (request) => request.query('username') !== undefined,
  },
  { paths: both('/top-langs'), endpoint: githubReadmeStatsTopLanguages },
  { paths: both('/pin'), endpoint: githubReadmeStatsPin },
  { paths: both('/gist'), endpoint: githubReadmeStatsGist },
  { paths: both('/wakatime'), endpoint: githubReadmeStatsWakatime },
  { paths: both('/icons'), endpoint: skillIconsRow },
  { paths: both('/ghpvc'), endpoint: profileViewsCounter },
  {
    // shields' path form; our own `/badge?label=...` stays a route of its own.
    // One or more characters after `/badge/`, so `/badge` itself stays ours.
    paths: ['/badge/:path{.+}', '/api/badge/:path{.+}'],
    endpoint: shieldsStaticBadge,
    query: (url) => {
      const query = new URLSearchParams(url.search);
      query.set(badgePathParameter, decodedAfter(url.pathname, '/badge/'));
      return query.toString();
    },
  },
];

/** The percent-decoded rest of `pathname` after `marker` (as written when it cannot be decoded). */
function decodedAfter(pathname: string, marker: string): string {
  const rest = pathname.slice(pathname.indexOf(marker) + marker.length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/**
 * Registers every compat route on `app`. `otherwise` answers a route's paths when its `when`
 * does not hold (the gallery); `handlerFor` gives the pipeline handler of an endpoint.
 */
export function registerCompatRoutes(
  app: Hono,
  otherwise: (c: Context) => Response | Promise<Response>,
  handlerFor: (endpoint: Endpoint) => (request: Request, env?: unknown) => Promise<Response>,
  routes: readonly CompatRoute[] = compatRoutes,
): void {
  for (const route of routes) {
    const handle = handlerFor(route.endpoint);
    // One handler per path: a second one matching the same path would put every request of it
    // through Hono's slower middleware chain.
    app.on('GET', [...route.paths], (c) => {
      if (route.when && !route.when(c.req)) return otherwise(c);
      if (!route.query) return handle(c.req.raw, c.env);
      const target = new URL(c.req.url);
      target.search = route.query(target);
      return handle(new Request(target, c.req.raw), c.env);
    });
  }
}
