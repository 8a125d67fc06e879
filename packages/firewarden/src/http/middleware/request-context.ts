/**
 * @module First middleware of every request: gives it an id and a client address, and puts the
 * id and the security headers on whatever answer it gets.
 */
import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { requestHeader } from '@suite/web-auth';
import { createMiddleware } from 'hono/factory';
import { trustedProxyMatcher } from '../../config/trusted-proxies.js';
import type { AppEnv } from '../app-env.js';
import { resolveClientAddress } from '../client-address.js';
import { requestIdHeader } from '../envelope.js';

interface RequestContextOptions {
  trustedProxies: readonly string[];
  /** Adds Strict-Transport-Security (only meaningful over HTTPS). */
  tls: boolean;
}

/** An API answers JSON only: no framing, no sniffing, no caching, no referrer, no scripts. */
const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
};

export function requestContext(options: RequestContextOptions) {
  const trusted = trustedProxyMatcher(options.trustedProxies);
  const headers = options.tls
    ? { ...securityHeaders, 'strict-transport-security': 'max-age=31536000' }
    : securityHeaders;
  const headerNames = Object.keys(headers);
  return createMiddleware<AppEnv & { Bindings: Partial<HttpBindings> }>(async (c, next) => {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('audited', false);
    const peer = c.env?.incoming?.socket.remoteAddress;
    c.set('clientAddress', resolveClientAddress(peer, requestHeader(c, 'x-forwarded-for'), trusted));
    // The envelope puts these on its answers itself (envelope.ts), and needs to know whether a
    // handler added headers of its own through Hono.
    c.set('answerHeaders', headers);
    const honoHeader = c.header;
    c.header = (name, value, headerOptions) => {
      c.set('handlerHeaders', true);
      honoHeader(name, value, headerOptions);
    };
    await next();
    if (c.get('enveloped')) return;
    // Any other answer gets them afterwards.
    c.res.headers.set(requestIdHeader, requestId);
    for (const name of headerNames) c.res.headers.set(name, headers[name]!);
  });
}
