/**
 * @module The server's view of the privileged agent (issue 10 adds the protocol). For now it
 * answers whether the agent's Unix socket accepts a connection, which is what the firewall routes
 * and the diagnostics report; the launcher starts no agent, so they say "agent not connected".
 */
import { connect } from 'node:net';

export interface AgentProbe {
  connected: boolean;
  socket_path: string;
  /** Why not: the socket file is missing, refuses connections, or did not answer in time. */
  reason: 'socket_missing' | 'connection_refused' | 'timeout' | 'permission_denied' | 'error' | null;
}

const probeTimeoutMs = 1_000;

export function probeAgent(socketPath: string): Promise<AgentProbe> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const finish = (connected: boolean, reason: AgentProbe['reason']) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ connected, socket_path: socketPath, reason });
    };
    const timer = setTimeout(() => finish(false, 'timeout'), probeTimeoutMs);
    socket.once('connect', () => finish(true, null));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const reasons: Record<string, AgentProbe['reason']> = {
        ENOENT: 'socket_missing',
        ECONNREFUSED: 'connection_refused',
        EACCES: 'permission_denied',
      };
      finish(false, reasons[error.code ?? ''] ?? 'error');
    });
  });
}
