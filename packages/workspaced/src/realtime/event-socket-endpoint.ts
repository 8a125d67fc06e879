/**
 * @module `GET /api/v1/ws`: the user's event socket (event-socket.ts); any signed-in user may open
 * it, and each subscription is judged on its own.
 */
import { serveEventSocket } from './event-socket.js';
import type { SocketEndpoint } from './socket-endpoint.js';

export const eventSocketEndpoint: SocketEndpoint = {
  route: (segments) =>
    segments.length === 1 && segments[0] === 'ws'
      ? async (_principal, currentPrincipal, deps) => (ws) => serveEventSocket(ws, currentPrincipal, deps)
      : undefined,
};
