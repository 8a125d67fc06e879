/**
 * @module Headers on every answer: a request id, and what keeps a JSON API from being sniffed,
 * framed, cached or used as a page (`Content-Security-Policy: default-src 'none'`).
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

export const responseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = randomUUID();
  c.set('requestId', requestId);
  await next();
  const headers = c.res.headers;
  headers.set('X-Request-Id', requestId);
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Referrer-Policy', 'no-referrer');
  headers.set('Cache-Control', 'no-store');
  headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
};
