/**
 * @module The Node server's `upgrade` event: the two WebSocket endpoints. Every check runs before
 * the handshake is accepted and a refusal is a plain HTTP error (no 101): web-auth's
 * `authorizeUpgrade` (Host allow-list, an allowed Origin required, the session cookie), then the
 * user's role, then the endpoint's own permission (terminal.view to watch a terminal;
 * terminal.write decides whether its input is accepted).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { authorizeUpgrade, type WebAuth } from '@suite/web-auth';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { roleHas } from '../access/permissions.js';
import { toPrincipal } from '../auth/principal.js';
import { sessionCookieName } from '../auth/request-security.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError } from '../http/api-error.js';
import { authorizeTerminal } from '../terminals/terminal-access.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import { serveTerminalSocket } from '../terminals/terminal-socket.js';
import type { EventBus } from './event-bus.js';
import { serveEventSocket } from './event-socket.js';
import { refuseUpgrade } from './upgrade-refusal.js';
import { matchUpgradeRoute } from './upgrade-routes.js';

export interface UpgradeOptions {
  auth: WebAuth;
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
  logger: Logger;
  port: () => number | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

/** Input frames hold at most 64 Ki characters; JSON escaping may grow them up to six times. */
const maxFrameBytes = 512 * 1024;

export function handleUpgrades(server: Server, options: UpgradeOptions): WebSocketServer {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes });
  const hosts = { port: options.port, allowedHosts: options.allowedHosts };

  const accept = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const route = matchUpgradeRoute(request.url);
    if (!route) return refuseUpgrade(socket, 404, 'NOT_FOUND', 'no WebSocket endpoint here');
    const verdict = await authorizeUpgrade(request.headers, {
      auth: options.auth,
      cookieName: sessionCookieName,
      hosts,
      allowedOrigins: options.allowedOrigins,
    });
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.code, verdict.message);
    const principal = toPrincipal(verdict.auth.user);
    if (route.kind === 'events') {
      return sockets.handleUpgrade(request, socket, head, (ws) => serveEventSocket(ws, principal, options));
    }
    const { session, role } = await authorizeTerminal(
      options.db,
      options.terminals,
      principal,
      route.id,
      'terminal.view',
    );
    sockets.handleUpgrade(request, socket, head, (ws) =>
      serveTerminalSocket(ws, session, roleHas(role, 'terminal.write')),
    );
  };

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    accept(request, socket, head).catch((error: unknown) => {
      if (error instanceof ApiError) return refuseUpgrade(socket, error.status, error.code, error.message);
      options.logger.error({ err: error }, 'WebSocket upgrade failed');
      refuseUpgrade(socket, 500, 'INTERNAL', 'internal error; see the daemon log');
    });
  });
  return sockets;
}
