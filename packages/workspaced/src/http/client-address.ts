/**
 * @module The client's address as the socket reports it (@hono/node-server puts the Node request
 * in `c.env.incoming`). The daemon trusts no forwarding header: it is meant to be reached
 * directly on loopback; behind a proxy every client shares the proxy's address.
 */
import type { Context } from 'hono';

export function clientAddress(c: Context): string | null {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}
