/**
 * @module A slow client (slowloris): sends a raw HTTP request one character at a time, to
 * check that a server cuts off a client whose request head never completes.
 */
import { connect } from 'node:net';

export interface TrickleOptions {
  /** Pause between two characters (default 1 s). */
  everyMs?: number;
  /**
   * How long to wait for the server to close once everything was sent (default 5 s); then the
   * helper closes the socket itself, so a server that never cuts off fails the test's assertion
   * on `sent` instead of hanging it.
   */
  afterLastCharMs?: number;
}

export interface TrickleResult {
  /** How many characters of the request went out before the connection closed. */
  sent: number;
  /** Everything the server answered (a `408` or nothing, for a server that cuts slow clients off). */
  received: string;
}

/**
 * Opens a TCP connection to `target`'s host and port and writes `request` character by character
 * until the server closes the connection.
 *
 * @example
 * const request = `GET / HTTP/1.1\r\nHost: ${url.host}\r\nX-Padding: ${'x'.repeat(60)}\r\n\r\n`;
 * const { sent, received } = await trickleRequest(url, request);
 * expect(sent).toBeLessThan(request.length);
 */
export function trickleRequest(
  target: string | URL,
  request: string,
  options: TrickleOptions = {},
): Promise<TrickleResult> {
  const url = new URL(target);
  // URL keeps IPv6 literals in brackets; net.connect wants them bare.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const socket = connect(Number(url.port), host);
  socket.setEncoding('utf8');
  let received = '';
  let sent = 0;
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A reset by the server is one way of cutting the client off, not a test failure.
  socket.on('error', () => {});
  let giveUp: NodeJS.Timeout | undefined;
  const timer = setInterval(() => {
    if (socket.destroyed) return;
    if (sent < request.length) {
      socket.write(request[sent++]!);
    } else if (!giveUp) {
      giveUp = setTimeout(() => socket.destroy(), options.afterLastCharMs ?? 5_000);
    }
  }, options.everyMs ?? 1_000);
  return new Promise((resolve) => {
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ sent, received });
    });
  });
}
