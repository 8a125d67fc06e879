/**
 * @module Registers routes: per path, the handlers of each method behind the middleware every
 * route shares (session, CSRF), and a 405 `METHOD_NOT_ALLOWED` with an `Allow` header for every
 * other method on that path (Hono alone would say 404).
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RouteHandlers = Partial<Record<Method, MiddlewareHandler<AppEnv>[]>>;
export type DefineRoute = (path: string, handlers: RouteHandlers) => void;

/** `shared` runs after the route is known (so refusals it gives are audited with the route). */
export function routeDefiner(app: Hono<AppEnv>, shared: MiddlewareHandler<AppEnv>[]): DefineRoute {
  return (path, handlers) => {
    const mark: MiddlewareHandler<AppEnv> = async (c, next) => {
      c.set('route', path);
      await next();
    };
    const methods = Object.keys(handlers) as Method[];
    for (const method of methods) app.on(method, path, mark, ...shared, ...(handlers[method] ?? []));
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.all(path, mark, () => {
      throw new ApiError('METHOD_NOT_ALLOWED', `this path answers ${allow}`, undefined, { Allow: allow });
    });
  };
}
