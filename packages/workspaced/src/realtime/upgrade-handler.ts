/**
 * @module The Node server's `upgrade` event, serving the socket endpoints `http/app.ts` lists
 * (each feature owns its own). Every check runs before
 * the handshake is accepted and a refusal is a plain HTTP error (no 101): web-auth's
 * `authorizeUpgrade` (Host allow-list, an allowed Origin required, the session cookie), then the
 * user's role, then the endpoint's own permission (terminal.view to watch a terminal;
 * terminal.write decides whether its input is accepted), then the session's socket count
 * (429 `TOO_MANY_SOCKETS` past `maxSocketsPerSession`). An accepted socket is registered with its
 * user and session (socket-registry.ts) and judges every frame with the session and role of now.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { authorizeUpgrade, type WebAuth } from '@suite/web-auth';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { toPrincipal } from '../auth/principal.js';
import { sessionCookieName } from '../auth/request-security.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError } from '../http/api-error.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import type { EventBus } from './event-bus.js';
import { endSocket } from './socket-close.js';
import type { SocketEndpoint } from './socket-endpoint.js';
import { sessionPrincipal } from './socket-principal.js';
import type { SocketRegistry } from './socket-registry.js';
import { refuseUpgrade } from './upgrade-refusal.js';
import { matchUpgradeRoute } from './upgrade-routes.js';

interface UpgradeOptions {
  auth: WebAuth;
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
  sockets: SocketRegistry;
  logger: Logger;
  port: () => number | undefined;
  allowedHosts: readonly string[];
  loopbackNames: readonly string[];
  allowedOrigins: readonly string[];
  /** The socket endpoints, in the order they are matched (`socketEndpoints` of http/app.ts). */
  endpoints: readonly SocketEndpoint[];
}

/** Input frames hold at most 64 Ki characters; JSON escaping may grow them up to six times. */
const maxFrameBytes = 512 * 1024;

export function handleUpgrades(server: Server, options: UpgradeOptions): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes });
  const hosts = {
    port: options.port,
    allowedHosts: options.allowedHosts,
    loopbackNames: options.loopbackNames,
  };

  const accept = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const open = matchUpgradeRoute(request.url, options.endpoints);
    if (!open) return refuseUpgrade(socket, 404, 'NOT_FOUND', 'no WebSocket endpoint here');
    const verdict = await authorizeUpgrade(request.headers, {
      auth: options.auth,
      cookieName: sessionCookieName,
      hosts,
      allowedOrigins: options.allowedOrigins,
    });
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.code, verdict.message);
    const { user, session: authSession, token } = verdict.auth;
    const principal = toPrincipal(user);
    const currentPrincipal = sessionPrincipal(options.auth, token);
    const serve = await open(principal, currentPrincipal, options);
    // Checked after the last await, so the count and the registration below happen in one tick.
    const limit = options.sockets.maxSocketsPerSession;
    if (options.sockets.countForSession(authSession.id) >= limit) {
      const refused = new ApiError(
        'TOO_MANY_SOCKETS',
        `this session already holds ${limit} open sockets; close one first`,
      );
      return refuseUpgrade(socket, refused.status, refused.code, refused.message);
    }
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      const handle = serve(ws);
      const forget = options.sockets.add({
        userId: user.id,
        sessionId: authSession.id,
        close: (code, reason) => endSocket(ws, code, reason),
        recheck: handle.recheck,
      });
      ws.on('close', forget);
    });
  };

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    accept(request, socket, head).catch((error: unknown) => {
      if (error instanceof ApiError) return refuseUpgrade(socket, error.status, error.code, error.message);
      options.logger.error({ err: error }, 'WebSocket upgrade failed');
      refuseUpgrade(socket, 500, 'INTERNAL', 'internal error; see the daemon log');
    });
  });
  return wss;
}
