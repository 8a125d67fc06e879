/**
 * @module A browser's view of previews: opening `/api/v1/preview/{port}/...` on the daemon, following
 * the redirect to `p<port>.localhost:<preview port>` and keeping that origin's pass cookie. The
 * `*.localhost` names are resolved to 127.0.0.1 here as browsers do (RFC 6761) since the test
 * machine's resolver may not.
 */
import type { LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { Client } from './daemon.js';

type LookupCallback = (error: null, address: string | LookupAddress[], family?: number) => void;

/** Every name to 127.0.0.1, like a browser does for `*.localhost`. */
export function localhostLookup(_name: string, options: { all?: boolean }, callback: LookupCallback): void {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends a request to a URL whose host may be any name (resolved to 127.0.0.1) and starts reading. */
export function openRequest(url: string, options: RawRequest = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      lookup: localhostLookup as never,
      agent: false,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(options.body);
  });
}

export async function rawRequest(url: string, options: RawRequest = {}): Promise<RawAnswer> {
  const response = await openRequest(url, options);
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

/** `GET /api/v1/preview/{port}{rest}` on the daemon with the client's session; no redirect followed. */
export async function askPreview(client: Client, port: number | string, rest = '/') {
  const headers: Record<string, string> = client.cookie ? { cookie: client.cookie } : {};
  return fetch(`${client.baseUrl}/api/v1/preview/${port}${rest}`, { headers, redirect: 'manual' });
}

/** A browser tab on one preview origin: its cookie jar and origin. */
export class PreviewTab {
  constructor(
    readonly origin: string,
    readonly cookie: string,
  ) {}

  request(path: string, options: RawRequest = {}): Promise<RawAnswer> {
    return rawRequest(`${this.origin}${path}`, {
      ...options,
      headers: { cookie: this.cookie, ...options.headers },
    });
  }

  open(path: string, options: RawRequest = {}): Promise<IncomingMessage> {
    return openRequest(`${this.origin}${path}`, {
      ...options,
      headers: { cookie: this.cookie, ...options.headers },
    });
  }

  socket(path: string, headers: Record<string, string> = {}): WebSocket {
    return new WebSocket(`${this.origin.replace('http:', 'ws:')}${path}`, {
      headers: { cookie: this.cookie, origin: this.origin, ...headers },
      lookup: localhostLookup as never,
    });
  }
}

/** The status a WebSocket handshake got: 101 when it opened, else the refusal's status. */
export function handshakeStatus(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', reject);
  });
}

/** Opens a preview the way a browser does: daemon redirect, ticket exchange, pass cookie. */
export async function openPreview(
  client: Client,
  port: number,
  rest = '/',
): Promise<{ tab: PreviewTab; next: string }> {
  const answer = await askPreview(client, port, rest);
  if (answer.status !== 302) throw new Error(`preview refused: ${answer.status} ${await answer.text()}`);
  const location = new URL(answer.headers.get('location')!);
  const exchange = await rawRequest(location.toString());
  if (exchange.status !== 303) throw new Error(`ticket exchange failed: ${exchange.status} ${exchange.body}`);
  const setCookie = exchange.headers['set-cookie']![0]!;
  return {
    tab: new PreviewTab(location.origin, setCookie.slice(0, setCookie.indexOf(';'))),
    next: exchange.headers.location!,
  };
}
