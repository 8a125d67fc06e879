/**
 * @module The agent's Unix socket: mode 0660 and owned by the server's group, so only root and
 * that group can connect (the kernel checks it on connect). Newline-delimited JSON; a line longer
 * than the cap is refused with an error answer and the connection closed before anything runs.
 * Requests of one connection are answered in order.
 */
import { chmod, chown, lstat, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { Response } from '../agent-protocol/protocol.js';

interface SocketServerOptions {
  socketPath: string;
  /** Group id that may connect; omitted keeps the process's group. */
  gid?: number;
  maxMessageBytes: number;
  handle: (line: string) => Promise<Response>;
}

export async function listenOnSocket(options: SocketServerOptions): Promise<Server> {
  await removeStaleSocket(options.socketPath);
  const server = createServer((socket) => serveConnection(socket, options));
  // Created with no permissions for others, then opened to the group only: no window where anyone else can connect.
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.socketPath, () => resolve());
    });
  } finally {
    process.umask(previous);
  }
  if (options.gid !== undefined) await chown(options.socketPath, process.getuid?.() ?? 0, options.gid);
  await chmod(options.socketPath, 0o660);
  return server;
}

function serveConnection(socket: Socket, options: SocketServerOptions): void {
  let buffered: Buffer[] = [];
  let size = 0;
  let chain = Promise.resolve();
  const answer = (response: Response) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(response)}\n`);
  };
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, newline);
      if (size + part.length > options.maxMessageBytes) return refuse();
      const line = Buffer.concat([...buffered, part]).toString('utf8');
      buffered = [];
      size = 0;
      start = newline + 1;
      if (line.trim() === '') continue;
      chain = chain.then(async () => answer(await options.handle(line)));
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > options.maxMessageBytes) return refuse();
    if (rest.length > 0) buffered.push(rest);
  });
  function refuse(): void {
    buffered = [];
    socket.pause();
    socket.end(
      `${JSON.stringify({
        ok: false,
        error: {
          code: 'AGENT_MESSAGE_TOO_LARGE',
          message: `a message may be at most ${options.maxMessageBytes} bytes`,
        },
      })}\n`,
    );
    socket.removeAllListeners('data');
  }
}

/** A socket file left by a crashed agent blocks listen; anything that is not a socket is left alone. */
async function removeStaleSocket(socketPath: string): Promise<void> {
  const stat = await lstat(socketPath).catch(() => null);
  if (stat?.isSocket()) await rm(socketPath, { force: true });
}
