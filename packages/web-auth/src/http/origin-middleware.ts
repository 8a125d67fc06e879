/**
 * @module Hono middleware answering 403 `ORIGIN_NOT_ALLOWED` to a mutating request or WebSocket
 * upgrade from an origin that is not allowed (rules in origin-rules.ts). For upgrades handled
 * outside Hono (`ws` on the Node server's `upgrade` event) call `isAllowedOrigin` directly.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { isAllowedOrigin, type OriginRules } from './origin-rules.js';
import { headerGetter } from './request-headers.js';
import { type AuthErrorWriter, authErrorStatus } from './types.js';

export interface OriginCheckOptions extends OriginRules {
  onError: AuthErrorWriter;
}

export function originCheck(options: OriginCheckOptions) {
  return createMiddleware(async (c, next) => {
    if (!isAllowedOrigin(c.req.method, headerGetter(c), options)) return refuseOrigin(c, options);
    await next();
  });
}

export function refuseOrigin(c: Context, options: OriginCheckOptions): Response | Promise<Response> {
  return options.onError(
    c,
    authErrorStatus.ORIGIN_NOT_ALLOWED,
    'ORIGIN_NOT_ALLOWED',
    'this Origin may not make this request',
  );
}
