/**
 * @module The request gate: CORS headers, OPTIONS preflight (204), method (405), IP allow-list
 * (403), per-client rate limit (429), Bearer API key (401). The limit runs before the key check
 * (the original plugin checked it after) so that wrong keys spend the client's budget.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config/schema.js';
import { type AddressList, clientKey, createAddressList, resolveClientAddress } from './address-list.js';
import { errorResponse } from './error-body.js';
import { headersWith } from './headers-with.js';
import { FixedWindowRateLimiter } from './rate-limiter.js';

export type ClientAddressReader = (request: Request, env: unknown) => string | undefined;

/** Socket peer address as @hono/node-server exposes it. */
export const nodePeerAddress: ClientAddressReader = (_request, env) =>
  (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;

const allowedMethods = 'GET, OPTIONS';
const exposedHeaders = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

interface SecurityOptions {
  security: Config['security'];
  rateLimit: Config['rate-limit'];
  peerAddress: ClientAddressReader;
  now?: () => number;
}

export function securityGate(options: SecurityOptions): MiddlewareHandler {
  const { security, rateLimit } = options;
  const allowList = security['enable-ip-whitelist'] ? createAddressList(security['allowed-ips']) : null;
  const trustedProxies: AddressList | null =
    security['trusted-proxies'].length > 0 ? createAddressList(security['trusted-proxies']) : null;
  const keyDigest =
    security['enable-api-key'] && security['api-key'].trim() !== '' ? digest(security['api-key']) : null;
  const limiter = rateLimit.enabled
    ? new FixedWindowRateLimiter(rateLimit.requests, rateLimit['window-seconds'] * 1_000, options.now)
    : null;
  const corsHeaders: Record<string, string> = security['enable-cors']
    ? {
        'Access-Control-Allow-Origin': security['cors-origin'],
        'Access-Control-Allow-Methods': allowedMethods,
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Expose-Headers': exposedHeaders,
        'Access-Control-Max-Age': '600',
        ...(security['cors-origin'] === '*' ? {} : { Vary: 'Origin' }),
      }
    : {};

  return async (c, next) => {
    const reject = (status: number, message: string, headers: Record<string, string> = {}) =>
      errorResponse(status, message, Object.assign({}, corsHeaders, headers));
    const method = c.req.method;
    if (method === 'OPTIONS' && security['enable-cors'])
      return new Response(null, { status: 204, headers: corsHeaders });
    if (method !== 'GET') {
      return reject(405, `Method ${method} not allowed`, { Allow: allowedMethods });
    }
    // The client address is only worked out when something needs it.
    const client =
      allowList || limiter
        ? resolveClientAddress(
            options.peerAddress(c.req.raw, c.env),
            c.req.header('x-forwarded-for') ?? null,
            trustedProxies,
          )
        : '';
    if (allowList && !allowList.has(client)) return reject(403, 'IP not allowed');
    let limitHeaders: Record<string, string> = {};
    if (limiter) {
      const decision = limiter.hit(clientKey(client));
      limitHeaders = {
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': String(decision.remaining),
        'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1_000)),
      };
      if (!decision.allowed) {
        const retryAfter = Math.max(
          1,
          Math.ceil((decision.resetAt - (options.now?.() ?? Date.now())) / 1_000),
        );
        return reject(
          429,
          'Rate limit exceeded',
          headersWith(limitHeaders, 'Retry-After', String(retryAfter)),
        );
      }
    }
    if (keyDigest && !bearerMatches(c.req.header('authorization'), keyDigest)) {
      return reject(
        401,
        'Unauthorized',
        headersWith(limitHeaders, 'WWW-Authenticate', 'Bearer realm="game-stats"'),
      );
    }
    await next();
    for (const headers of [corsHeaders, limitHeaders])
      for (const name in headers) c.res.headers.set(name, headers[name]!);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const bearerScheme = 'bearer';

/** The token of `Bearer <token>` (scheme in any case), or null; no regex, so no backtracking. */
function bearerToken(header: string | undefined): string | null {
  const text = header?.trim() ?? '';
  if (text.slice(0, bearerScheme.length).toLowerCase() !== bearerScheme) return null;
  const rest = text.slice(bearerScheme.length);
  const token = rest.trimStart();
  return token !== rest && token !== '' ? token : null;
}

/** Compares digests so neither the key's content nor its length leaks through timing. */
function bearerMatches(header: string | undefined, keyDigest: Buffer): boolean {
  const token = bearerToken(header);
  return timingSafeEqual(digest(token ?? ''), keyDigest) && token !== null;
}
