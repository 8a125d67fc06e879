/**
 * @module The server's side of the agent protocol: a connection carries one request after another
 * (the agent answers a connection's requests in order), each answer read up to its newline within
 * a size cap and a deadline. Agent errors come back as values (the route decides the HTTP
 * status); a socket that is missing, refuses, stays silent or answers garbage is
 * `AgentUnavailable`.
 */
import { connect, type Socket } from 'node:net';
import type { Operation, Response } from './protocol.js';

export class AgentUnavailable extends Error {
  override readonly name = 'AgentUnavailable';
  constructor(
    readonly reason:
      | 'socket_missing'
      | 'connection_refused'
      | 'permission_denied'
      | 'timeout'
      | 'bad_answer'
      | 'error',
  ) {
    super(`the firewarden agent is not available (${reason})`);
  }
}

interface AgentCallOptions {
  timeoutMs?: number;
  maxAnswerBytes?: number;
}

/** Why a connection to the socket failed, by errno. */
export const unavailableOnConnect: Record<
  string,
  'socket_missing' | 'connection_refused' | 'permission_denied'
> = {
  ENOENT: 'socket_missing',
  ECONNREFUSED: 'connection_refused',
  EACCES: 'permission_denied',
};

/** One request on a connection of its own. */
export async function callAgent(
  socketPath: string,
  op: Operation,
  params: Record<string, unknown> = {},
  options: AgentCallOptions = {},
): Promise<Response> {
  const connection = new AgentConnection(socketPath, options);
  try {
    return await connection.call(op, params);
  } finally {
    connection.close();
  }
}

interface WaitingCall {
  resolve: (answer: Response) => void;
  reject: (error: AgentUnavailable) => void;
  timer: NodeJS.Timeout;
}

/**
 * The calls of one piece of work (a server request) on one connection, opened at the first call.
 * Once a call fails with `AgentUnavailable` the connection is gone and every later call fails the
 * same way.
 */
export class AgentConnection {
  private socket: Socket | null = null;
  private failure: AgentUnavailable | null = null;
  private readonly waiting: WaitingCall[] = [];
  private partial: Buffer[] = [];
  private partialBytes = 0;

  constructor(
    private readonly socketPath: string,
    private readonly options: AgentCallOptions = {},
  ) {}

  call(op: Operation, params: Record<string, unknown> = {}): Promise<Response> {
    if (this.failure) return Promise.reject(this.failure);
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail('timeout'), this.options.timeoutMs ?? 30_000);
      this.waiting.push({ resolve, reject, timer });
      socket.write(`${JSON.stringify({ op, params })}\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private open(): Socket {
    const socket = connect(this.socketPath);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.fail(unavailableOnConnect[error.code ?? ''] ?? 'error'),
    );
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    // Closed by the agent, or by us: no answer can come any more.
    socket.on('close', () => this.fail('bad_answer'));
    this.socket = socket;
    return socket;
  }

  private receive(chunk: Buffer) {
    const maxAnswerBytes = this.options.maxAnswerBytes ?? 64 * 1024 * 1024;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...this.partial, chunk.subarray(start, newline)]);
      this.partial = [];
      this.partialBytes = 0;
      start = newline + 1;
      if (line.length > maxAnswerBytes) return this.fail('bad_answer');
      let answer: Response;
      try {
        answer = JSON.parse(line.toString('utf8')) as Response;
      } catch {
        return this.fail('bad_answer');
      }
      const call = this.waiting.shift();
      if (!call) return this.fail('bad_answer');
      clearTimeout(call.timer);
      call.resolve(answer);
    }
    const rest = chunk.subarray(start);
    this.partialBytes += rest.length;
    if (this.partialBytes > maxAnswerBytes) return this.fail('bad_answer');
    if (rest.length > 0) this.partial.push(rest);
  }

  private fail(reason: AgentUnavailable['reason']): void {
    this.failure ??= new AgentUnavailable(reason);
    this.socket?.destroy();
    for (const call of this.waiting.splice(0)) {
      clearTimeout(call.timer);
      call.reject(this.failure);
    }
  }
}
