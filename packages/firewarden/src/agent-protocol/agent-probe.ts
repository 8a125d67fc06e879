/**
 * @module Whether the agent's Unix socket accepts a connection, without asking the agent anything:
 * the diagnostics' agent check (`doctor`, `status`), which says "agent not connected" and why.
 */
import { connect } from 'node:net';
import { type AgentUnavailable, unavailableOnConnect } from './agent-client.js';

interface AgentProbe {
  connected: boolean;
  socket_path: string;
  /** Why not: the socket file is missing, refuses connections, or did not answer in time. */
  reason: Exclude<AgentUnavailable['reason'], 'bad_answer'> | null;
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
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish(false, unavailableOnConnect[error.code ?? ''] ?? 'error'),
    );
  });
}
