/**
 * @module `GET /api/v1/terminals/{id}/ws`: one terminal's socket. Opening it takes terminal.view in
 * the terminal's project; terminal.write decides whether its input is accepted, judged again on
 * every frame with the role of now.
 */
import { roleHas } from '../access/permissions.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { parseId } from '../http/request-input.js';
import type { SocketEndpoint } from '../realtime/socket-endpoint.js';
import type { CurrentPrincipal } from '../realtime/socket-principal.js';
import { authorizeTerminal, terminalRole } from './terminal-access.js';
import type { TerminalSession } from './terminal-session.js';
import { serveTerminalSocket, type TerminalAccess } from './terminal-socket.js';

/** The terminal access of the socket's user now (terminal-socket.ts judges it). */
function terminalAccess(
  db: WorkspacedDb,
  session: TerminalSession,
  currentPrincipal: CurrentPrincipal,
): () => Promise<TerminalAccess> {
  return async () => {
    const principal = await currentPrincipal();
    if (!principal) return 'ended';
    const role = await terminalRole(db, principal, session);
    if (!role || !roleHas(role, 'terminal.view')) return 'none';
    return roleHas(role, 'terminal.write') ? 'write' : 'view';
  };
}

export const terminalSocketEndpoint: SocketEndpoint = {
  route(segments) {
    if (segments.length !== 3 || segments[0] !== 'terminals' || segments[2] !== 'ws') return undefined;
    const id = parseId(segments[1]!);
    if (id === undefined) return undefined;
    return async (principal, currentPrincipal, deps) => {
      const terminal = await authorizeTerminal(deps.db, deps.terminals, principal, id, 'terminal.view');
      return (ws) =>
        serveTerminalSocket(ws, terminal.session, {
          access: terminalAccess(deps.db, terminal.session, currentPrincipal),
          writer: roleHas(terminal.role, 'terminal.write'),
        });
    };
  },
};
