/**
 * @module The server's side of the agent protocol: one request per connection, the answer read
 * up to its newline within a size cap and a deadline. Agent errors come back as values (the
 * route decides the HTTP status); a socket that is missing, refuses or stays silent is
 * `AgentUnavailable`.
 */
import { connect } from 'node:net';
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

export interface AgentCallOptions {
  timeoutMs?: number;
  maxAnswerBytes?: number;
}

const errnoReasons: Record<string, AgentUnavailable['reason']> = {
  ENOENT: 'socket_missing',
  ECONNREFUSED: 'connection_refused',
  EACCES: 'permission_denied',
};

export function callAgent(
  socketPath: string,
  op: Operation,
  params: Record<string, unknown> = {},
  options: AgentCallOptions = {},
): Promise<Response> {
  const maxAnswerBytes = options.maxAnswerBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (reason: AgentUnavailable['reason']) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new AgentUnavailable(reason));
    };
    const timer = setTimeout(() => fail('timeout'), options.timeoutMs ?? 30_000);
    socket.on('error', (error: NodeJS.ErrnoException) => fail(errnoReasons[error.code ?? ''] ?? 'error'));
    socket.on('data', (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      size += chunk.length;
      if (size > maxAnswerBytes) return fail('bad_answer');
      if (newline === -1) return;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Response);
      } catch {
        reject(new AgentUnavailable('bad_answer'));
      }
    });
    socket.on('end', () => fail('bad_answer'));
    socket.write(`${JSON.stringify({ op, params })}\n`);
  });
}
