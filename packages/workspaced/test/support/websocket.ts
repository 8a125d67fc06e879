/**
 * @module A real `ws` client for the daemon's sockets, as a browser would open them (session
 * cookie, Origin of the page), that collects what it receives so tests can wait for output.
 */
import http from 'node:http';
import WebSocket from 'ws';
import type { Client, RunningDaemon } from './daemon.js';

export class SocketClient {
  readonly binary: Buffer[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: JSON frames are inspected field by field
  readonly messages: any[] = [];
  /** The last few KiB of output, cheap to search while megabytes stream in. */
  tail = '';
  receivedBytes = 0;
  private waiters: (() => void)[] = [];

  /** Set to false for bulk output: only `tail` and `receivedBytes` are kept then. */
  keepBinary = true;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        this.receivedBytes += data.length;
        this.tail = (this.tail + data.toString('latin1')).slice(-4096);
        if (this.keepBinary) this.binary.push(data);
      } else this.messages.push(JSON.parse(data.toString('utf8')));
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  get output(): string {
    return Buffer.concat(this.binary).toString('utf8');
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** Resolves once `check` holds; rejects if the socket closes first or after `ms`. */
  async until<T>(check: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = check();
      if (value) return value;
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed while waiting for ${what}`);
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; output:\n${this.output.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

export function openSocket(daemon: RunningDaemon, client: Client, route: string): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/api/v1${route}`, {
      headers: { cookie: client.cookie ?? '', origin: daemon.url },
    });
    const socket = new SocketClient(ws);
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused with ${response.statusCode}`)),
    );
    ws.once('error', reject);
  });
}

/** An upgrade request with chosen headers; returns the HTTP status (101 when accepted). */
export function rawUpgrade(daemon: RunningDaemon, route: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port: daemon.port,
      path: `/api/v1${route}`,
      setHost: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '' });
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
