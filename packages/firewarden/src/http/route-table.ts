/**
 * @module Registers routes: per path, the handlers of each method behind the middleware every
 * route shares (session, CSRF), and a 405 `METHOD_NOT_ALLOWED` with an `Allow` header for every
 * other method on that path (Hono alone would say 404).
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type RouteHandlers = Partial<Record<Method, MiddlewareHandler<AppEnv>[]>>;
export type DefineRoute = (path: string, handlers: RouteHandlers) => void;

/**
 * `guard` runs after the route is known (so refusals it gives are audited with the route), in
 * the same frame of Hono's chain as the mark (one frame fewer per request).
 */
export function routeDefiner(app: Hono<AppEnv>, guard: MiddlewareHandler<AppEnv>): DefineRoute {
  return (path, handlers) => {
    const mark: MiddlewareHandler<AppEnv> = async (c, next) => {
      c.set('route', path);
      await next();
    };
    const markAndGuard: MiddlewareHandler<AppEnv> = (c, next) => {
      c.set('route', path);
      return guard(c, next);
    };
    const methods = Object.keys(handlers) as Method[];
    for (const method of methods) app.on(method, path, markAndGuard, ...(handlers[method] ?? []));
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.all(path, mark, () => {
      throw new ApiError('METHOD_NOT_ALLOWED', `this path answers ${allow}`, undefined, { Allow: allow });
    });
  };
}
