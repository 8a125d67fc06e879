/**
 * @module Test support: the agent's socket answering `status` with whatever the test sets, so the
 * tray's tooltip can be driven (a pending safe apply, then none).
 */
import { createServer } from 'node:net';

export interface AgentStandIn {
  setStatus(status: Record<string, unknown>): void;
  close(): Promise<void>;
}

export async function startAgentStandIn(
  socketPath: string,
  status: Record<string, unknown>,
): Promise<AgentStandIn> {
  let current = status;
  const server = createServer((socket) => {
    socket.once('data', () => socket.end(`${JSON.stringify({ ok: true, result: current })}\n`));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    setStatus(next) {
      current = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
