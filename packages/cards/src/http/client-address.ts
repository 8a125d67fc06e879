/**
 * @module Who a request comes from, for the per-client bounds (GitHub calls, new visitor
 * counters). Reads only what the platform itself sets, never a header a client can write.
 */

/** Reads the client of a request from the request and the platform's `env`; undefined when unknown. */
export type ClientOf = (request: Request, env: unknown) => string | undefined;

/**
 * The socket peer on Node (`@hono/node-server` passes the incoming message as `env.incoming`),
 * else `CF-Connecting-IP` when the request carries Cloudflare's `cf` object (Workers set both;
 * a client cannot). Elsewhere (behind another proxy) pass `clientOf` to `createApp`.
 */
export const defaultClientOf: ClientOf = (request, env) => {
  const peer = (env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
  if (typeof peer === 'string' && peer !== '') return peer;
  if ((request as { cf?: unknown }).cf !== undefined)
    return request.headers.get('cf-connecting-ip') ?? undefined;
  return undefined;
};
