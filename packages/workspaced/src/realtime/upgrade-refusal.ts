/**
 * @module Refuses a WebSocket upgrade with a plain HTTP answer in the daemon's JSON error shape
 * (no 101 is ever sent), then closes the socket.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
