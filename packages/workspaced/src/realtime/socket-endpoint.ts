/**
 * @module What a feature's WebSocket endpoint declares, so each feature owns its socket and the
 * upgrade plumbing (upgrade-handler.ts) only runs the checks every socket shares. `http/app.ts`
 * lists the endpoints.
 */
import type { WebSocket } from 'ws';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import type { EventBus } from './event-bus.js';
import type { CurrentPrincipal } from './socket-principal.js';

/** The daemon's services an endpoint may use. */
interface SocketDeps {
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
}

/** An accepted socket's handle: `recheck` judges it again with the session and role of now. */
export interface ServedSocket {
  recheck(): Promise<void>;
}

/**
 * Checks the caller may open the socket (throwing an `ApiError`, answered as the plain HTTP
 * refusal, when not) and returns what serves it once the handshake is accepted.
 */
export type SocketOpener = (
  principal: Principal,
  currentPrincipal: CurrentPrincipal,
  deps: SocketDeps,
) => Promise<(ws: WebSocket) => ServedSocket>;

export interface SocketEndpoint {
  /** The opener for a path below `/api/v1` split on `/` (`['terminals', '7', 'ws']`), if it is this endpoint's. */
  route(segments: readonly string[]): SocketOpener | undefined;
}
