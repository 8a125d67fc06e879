/**
 * @module Test support: a Unix socket in front of the agent's that forwards each connection as it
 * is and records, per connection, the operations the client sent over it, in order: what the
 * agent sees of a client.
 */
import { connect, createServer } from 'node:net';

export interface RecordingRelay {
  socketPath: string;
  /** One entry per connection accepted since the last `clear`: the `op` of each request line. */
  connections: string[][];
  clear(): void;
  close(): Promise<void>;
}

export async function startRecordingRelay(socketPath: string, agentSocket: string): Promise<RecordingRelay> {
  const relay: RecordingRelay = {
    socketPath,
    connections: [],
    clear: () => {
      relay.connections = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((client) => {
    const ops: string[] = [];
    relay.connections.push(ops);
    const agent = connect(agentSocket);
    let unfinished = '';
    client.on('data', (chunk: Buffer) => {
      const lines = (unfinished + chunk.toString('utf8')).split('\n');
      unfinished = lines.pop()!;
      for (const line of lines) ops.push((JSON.parse(line) as { op: string }).op);
    });
    client.pipe(agent).pipe(client);
    const closeBoth = () => {
      client.destroy();
      agent.destroy();
    };
    for (const socket of [client, agent]) {
      socket.on('close', closeBoth);
      socket.on('error', closeBoth);
    }
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return relay;
}
