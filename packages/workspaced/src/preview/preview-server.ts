/**
 * @module The preview origin: a second listener of its own (`--preview-port`) that answers only
 * for `p<port>.localhost:<preview port>` host names and serves nothing of the daemon's API. Every
 * request and WebSocket upgrade first proves a live preview pass for that port (see
 * `preview-access.ts`); the one path of its own is the ticket exchange, `/__workspaced/preview`.
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { refuseUpgrade } from '../realtime/upgrade-refusal.js';
import { type PreviewAccess, previewPermission } from './preview-access.js';
import { answerError, type PreviewError, previewError } from './preview-errors.js';
import { portFromPreviewHost } from './preview-host.js';
import { readPassCookies, serializePassCookie } from './preview-pass-cookie.js';
import type { OwnPorts } from './preview-port.js';
import { proxyRequest } from './preview-proxy.js';
import type { PreviewTokens } from './preview-tokens.js';
import { proxyUpgrade } from './preview-upgrade.js';

/** Where the API origin sends a browser with a ticket: `?ticket=...&next=/path?query`. */
export const ticketExchangePath = '/__workspaced/preview';

interface PreviewServerOptions {
  /** A loopback address. */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When `port` is taken, listen on any free port instead of failing (the port was a default). */
  fallbackToFreePort: boolean;
  tokens: PreviewTokens;
  access: PreviewAccess;
  ownPorts: OwnPorts;
  logger: Logger;
}

interface RunningPreviewServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** The preview port is in use: the daemon does not start (the CLI says which flag to change). */
export class PreviewPortTaken extends Error {
  constructor(readonly port: number) {
    super(`preview port ${port} on 127.0.0.1 is already in use; choose another with --preview-port`);
    this.name = 'PreviewPortTaken';
  }
}

class Refusal extends Error {
  constructor(readonly answer: PreviewError) {
    super(answer.message);
  }
}

const refuse = (...error: Parameters<typeof previewError>) => new Refusal(previewError(...error));

/**
 * A path the browser may be sent back to on this same origin: starts with one `/` and holds no
 * backslash or control character (`//evil.example` and `/\evil.example` leave the origin).
 */
function isLocalPath(next: string): boolean {
  if (!next.startsWith('/') || next.startsWith('//')) return false;
  for (const character of next) {
    const code = character.charCodeAt(0);
    if (character === '\\' || code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** Only `/path?query` targets: a proxy-style absolute URL or `*` is not for the app. */
function requireOriginForm(request: IncomingMessage): void {
  if (!request.url?.startsWith('/'))
    throw refuse('INVALID_REQUEST_TARGET', 'the request target must be a path starting with /');
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<RunningPreviewServer> {
  const { tokens, access } = options;
  let listenerPort = options.port;

  const targetPort = (request: IncomingMessage): number => {
    const port = portFromPreviewHost(request.headers.host, listenerPort);
    if (port === undefined)
      throw refuse(
        'HOST_NOT_ALLOWED',
        `previews are served on p<port>.localhost:${listenerPort} only; open one through GET /api/v1/preview/{port}/ on the daemon`,
      );
    if (options.ownPorts().includes(port))
      throw refuse('PREVIEW_PORT_REFUSED', "the daemon's own ports cannot be previewed");
    return port;
  };

  /** Some pass of the request's cookies that is signed for this port and whose session still may preview. */
  const authorize = async (request: IncomingMessage, port: number): Promise<void> => {
    for (const value of readPassCookies(request.headers.cookie)) {
      const grant = tokens.readPass(value, port);
      if (grant && (await access.sessionEnd(grant)) !== undefined) return;
    }
    throw refuse(
      'PREVIEW_AUTH_REQUIRED',
      `no valid preview pass; open GET /api/v1/preview/${port}/ on the daemon while signed in with ${previewPermission}`,
    );
  };

  const exchangeTicket = async (request: IncomingMessage, response: ServerResponse, port: number) => {
    const query = new URL(request.url ?? '/', 'http://preview').searchParams;
    const next = query.get('next') ?? '/';
    const grant = tokens.redeemTicket(query.get('ticket') ?? '', port);
    if (!grant || request.method !== 'GET' || !isLocalPath(next))
      throw refuse(
        'PREVIEW_TICKET_INVALID',
        `this preview link is invalid, used or expired; open GET /api/v1/preview/${port}/ on the daemon again`,
      );
    const sessionEnd = await access.sessionEnd(grant);
    if (sessionEnd === undefined)
      throw refuse('PREVIEW_AUTH_REQUIRED', 'the session that opened this preview has ended');
    response.writeHead(303, {
      Location: next,
      'Set-Cookie': serializePassCookie(tokens.issuePass(grant, sessionEnd), sessionEnd),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    response.end();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const port = targetPort(request);
    requireOriginForm(request);
    if (request.url?.split('?', 1)[0] === ticketExchangePath) return exchangeTicket(request, response, port);
    await authorize(request, port);
    proxyRequest(request, response, port);
  };

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const port = targetPort(request);
    requireOriginForm(request);
    if (request.headers.upgrade?.toLowerCase() !== 'websocket')
      throw refuse('UPGRADE_NOT_SUPPORTED', 'only WebSocket upgrades are proxied');
    // Cross-site WebSocket hijacking: a browser page elsewhere must not ride on the pass cookie.
    const origin = request.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${request.headers.host?.toLowerCase()}`)
      throw refuse('ORIGIN_NOT_ALLOWED', 'a preview WebSocket must come from the preview page itself');
    await authorize(request, port);
    proxyUpgrade(request, socket, head, port);
  };

  const failed = (error: unknown): PreviewError => {
    if (error instanceof Refusal) return error.answer;
    options.logger.error({ err: error }, 'preview request failed');
    return previewError('INTERNAL', 'internal error; see the daemon log');
  };

  const server = http.createServer({ headersTimeout: 10_000, requestTimeout: 0 }, (request, response) => {
    handle(request, response).catch((error: unknown) =>
      answerError(response, failed(error), request.headers.accept),
    );
  });
  // Upgraded sockets leave the server's bookkeeping: keep them to end them on close.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    upgrade(request, socket, head).catch((error: unknown) => {
      const answer = failed(error);
      refuseUpgrade(socket, answer.status, answer.code, answer.message);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new PreviewPortTaken(port) : error),
      );
      server.listen(port, options.host, () => {
        server.removeAllListeners('error');
        resolve();
      });
    });
  try {
    await listen(options.port);
  } catch (error) {
    if (!(error instanceof PreviewPortTaken && options.fallbackToFreePort)) throw error;
    options.logger.warn(
      { port: options.port },
      'default preview port in use; previews use a free port instead',
    );
    await listen(0);
  }
  listenerPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: listenerPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      }),
  };
}
