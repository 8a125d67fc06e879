/**
 * @module First middleware of every request: gives it an id and a client address, and puts the
 * id and the security headers on whatever answer it gets.
 */
import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.js';
import { resolveClientAddress } from '../client-address.js';
import { requestIdHeader } from '../envelope.js';

export interface RequestContextOptions {
  trustedProxies: readonly string[];
  /** Adds Strict-Transport-Security (only meaningful over HTTPS). */
  tls: boolean;
}

/** An API answers JSON only: no framing, no sniffing, no caching, no referrer, no scripts. */
const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function requestContext(options: RequestContextOptions) {
  const trusted = new Set(options.trustedProxies);
  const headers = options.tls
    ? { ...securityHeaders, 'Strict-Transport-Security': 'max-age=31536000' }
    : securityHeaders;
  const headerNames = Object.keys(headers);
  return createMiddleware<AppEnv & { Bindings: Partial<HttpBindings> }>(async (c, next) => {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('audited', false);
    const peer = c.env?.incoming?.socket.remoteAddress;
    c.set('clientAddress', resolveClientAddress(peer, c.req.header('x-forwarded-for'), trusted));
    // Set before the handler builds its answer, so they join it on creation: touching
    // `c.res.headers` afterwards would force @hono/node-server off its fast response path.
    c.header(requestIdHeader, requestId);
    for (const name of headerNames) c.header(name, headers[name]);
    await next();
  });
}
