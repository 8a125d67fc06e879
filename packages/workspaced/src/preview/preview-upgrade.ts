/**
 * @module WebSocket passthrough (a dev server's hot reload): the handshake is replayed to the
 * previewed port with the same header rules as a request; its answer goes back as is (a 101 and
 * then both sockets piped to each other byte for byte, or the app's refusal). The frames are
 * neither parsed nor limited here: they are the app's protocol.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuseUpgrade } from '../realtime/upgrade-refusal.js';
import { requestUpstream } from './loopback-target.js';
import { upstreamUnavailable } from './preview-errors.js';
import { downstreamResponseHeaders, type RawHeaders } from './proxy-headers.js';

function responseHead(statusCode: number, statusMessage: string, headers: RawHeaders): string {
  let head = `HTTP/1.1 ${statusCode} ${statusMessage}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}\r\n`;
}

export function proxyUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, port: number): void {
  const upstream = requestUpstream(request, port, { upgrade: true });
  upstream.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
    socket.write(
      responseHead(
        101,
        answer.statusMessage ?? 'Switching Protocols',
        downstreamResponseHeaders(answer.rawHeaders, true),
      ),
    );
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    upstreamSocket.on('error', () => socket.destroy());
    socket.on('close', () => upstreamSocket.destroy());
    upstreamSocket.on('close', () => socket.destroy());
    upstreamSocket.pipe(socket).pipe(upstreamSocket);
  });
  // The app declined the upgrade: relay its answer and close.
  upstream.on('response', (answer) => {
    socket.write(
      responseHead(answer.statusCode ?? 502, answer.statusMessage ?? '', [
        ...downstreamResponseHeaders(answer.rawHeaders),
        'Connection',
        'close',
      ]),
    );
    answer.pipe(socket);
  });
  upstream.on('error', () => {
    const error = upstreamUnavailable(port);
    refuseUpgrade(socket, error.status, error.code, error.message);
  });
  socket.on('close', () => upstream.destroy());
  if (head.length > 0) upstream.write(head);
  upstream.end();
}
