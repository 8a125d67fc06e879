/**
 * @module What an endpoint is: a path, a parameter table (zod schemas), a cache policy and a
 * render function returning SVG. The shared pipeline does everything else.
 */

import type { DrawnCard } from '../cards/render-memo.js';
import {
  type ParamDoc,
  type ParamTable,
  type ParamValues,
  parseQuery,
  querySchema,
} from '../params/index.js';
import type { CachePolicy } from './cache-control.js';
import type { CardServices } from './services.js';

export interface RenderContext {
  services: CardServices;
  request: Request;
}

export interface EndpointDefinition<Table extends ParamTable> {
  /** Path without the `/api` prefix, e.g. `/badge`. */
  path: `/${string}`;
  /** One line for the README and the gallery. */
  summary: string;
  params: Table;
  cache: CachePolicy;
  /**
   * True when the SVG depends only on the query (no store, no upstream, no clock): the
   * pipeline then keeps rendered answers in memory.
   */
  pure: boolean;
  /**
   * Returns the SVG, or a card drawn once per data version (`renderOnce`), whose finished
   * answer the pipeline then keeps; throw `CardError` for a failure the reader should see.
   */
  render(values: ParamValues<Table>, context: RenderContext): CardBody | Promise<CardBody>;
}

/** What a render returns: SVG drawn for this request, or a card drawn once per data version. */
export type CardBody = string | DrawnCard;

/** A parsed query's render. */
export type PreparedRun = (context: RenderContext) => Promise<CardBody>;

/** The parse outcome of a query: a render to run, or the message of a 400 card. */
type PreparedQuery = { ok: true; run: PreparedRun } | { ok: false; message: string };

/** An endpoint ready for the registry (not generic, so endpoints of any table fit one list). */
export interface Endpoint {
  path: `/${string}`;
  summary: string;
  params: Readonly<Record<string, ParamDoc>>;
  cache: CachePolicy;
  pure: boolean;
  /**
   * Every query parameter `prepare` reads (default: the names in `params`). The pipeline hands
   * `prepare` these alone and keys its caches by them, so unknown parameters cost nothing.
   */
  queryNames?: readonly string[];
  /** Set by `withAutoTheme`: `theme=auto` is already answered. */
  followsColorScheme?: true;
  prepare(query: Record<string, string>): PreparedQuery;
}

/**
 * Declares an endpoint.
 *
 * @example
 * export const hello = defineEndpoint({
 *   path: '/hello', summary: 'Says hello', cache: staticCardCache, pure: true,
 *   params: { name: text({ description: 'Who', max: 40, default: 'world' }) },
 *   render: ({ name }) => svgDocument({ width: 100, height: 20, title: name, body: '' }),
 * });
 */
export function defineEndpoint<Table extends ParamTable>(definition: EndpointDefinition<Table>): Endpoint {
  const schema = querySchema(definition.params);
  const docs = Object.fromEntries(
    Object.entries(definition.params).map(([name, param]) => [name, param.doc]),
  );
  return {
    path: definition.path,
    summary: definition.summary,
    params: docs,
    cache: definition.cache,
    pure: definition.pure,
    prepare(query) {
      const parsed = parseQuery(schema, query);
      if (!parsed.ok) return parsed;
      return { ok: true, run: async (context) => definition.render(parsed.values, context) };
    },
  };
}
