/**
 * @module Hono middleware answering 403 `HOST_NOT_ALLOWED` to a request whose Host is not on the
 * allow-list (see host-rules.ts). Put it first: it protects every route, public ones included.
 */
import { createMiddleware } from 'hono/factory';
import { type HostRules, isAllowedHost } from './host-rules.js';
import { requestHostOf } from './request-headers.js';
import { type AuthErrorWriter, authErrorStatus } from './types.js';

export interface HostAllowListOptions extends HostRules {
  onError: AuthErrorWriter;
}

/** The Host header, or the request URL's host when a test or adapter sent none. */
export function requestHost(request: Request): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}

export function hostAllowList(options: HostAllowListOptions) {
  // Not async: it does nothing after the request, so it hands on `next()`'s promise.
  return createMiddleware((c, next) => {
    if (!isAllowedHost(requestHostOf(c), options)) {
      return Promise.resolve(
        options.onError(c, authErrorStatus.HOST_NOT_ALLOWED, 'HOST_NOT_ALLOWED', 'this Host is not allowed'),
      );
    }
    return next();
  });
}
