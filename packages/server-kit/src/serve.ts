/**
 * @module Node adapter for a web-standard fetch handler that keeps the suite's operating
 * contract: prints `listening on http://HOST:PORT` once connections are accepted, and shuts
 * down cleanly on SIGTERM / SIGINT.
 */

import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';

export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

export interface NodeServerOptions {
  fetch: FetchHandler;
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger?: Logger;
  /** Runs once the HTTP server has stopped accepting connections (close databases, timers). */
  onShutdown?: () => void | Promise<void>;
  /** How long in-flight requests may take to finish after a stop signal; default 5 s. */
  shutdownGraceMs?: number;
  /** Where the listening line goes; default stdout. */
  announce?: (line: string) => void;
  /** Exit the process after a signal-triggered shutdown; default true. */
  exitOnSignal?: boolean;
  /** Serve HTTPS with this certificate chain and key (PEM); the listening line then says https. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Limits on slow clients; see `defaultTimeouts`. */
  timeouts?: Partial<ServerTimeouts>;
}

export interface ServerTimeouts {
  /** A client must finish sending its request headers within this long. */
  headersMs: number;
  /** A client must finish sending its whole request (headers and body) within this long. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveMs: number;
}

/**
 * Node's own defaults let a client trickle its headers for 60 s (checked only every 30 s, so up
 * to 90 s) and its body for 300 s, holding a socket each: far more than any honest client needs.
 */
export const defaultTimeouts: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** How often Node looks for connections past `headersMs` / `requestMs` (its default is 30 s). */
const timeoutCheckIntervalMs = 1_000;

export interface RunningServer {
  /** `http://HOST:PORT` as printed in the listening line. */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections, waits for in-flight requests, then runs `onShutdown`. */
  close: () => Promise<void>;
}

/** Formats an address the way a URL needs it (IPv6 literals in brackets). */
export function formatUrl(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${port}`;
}

/**
 * Serves `fetch` on Node and resolves once the socket accepts connections.
 *
 * @example
 * const running = await startNodeServer({ fetch: app.fetch, host: '127.0.0.1', port: 0 });
 * // prints: listening on http://127.0.0.1:41234
 */
export function startNodeServer(options: NodeServerOptions): Promise<RunningServer> {
  const graceMs = options.shutdownGraceMs ?? 5_000;
  const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
  return new Promise((resolve, reject) => {
    const timeouts = { ...defaultTimeouts, ...options.timeouts };
    const serverOptions = {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs,
    };
    const listen = { fetch: options.fetch, hostname: options.host, port: options.port };
    const server = (
      options.tls
        ? serve({
            ...listen,
            createServer: createHttpsServer,
            serverOptions: { ...serverOptions, cert: options.tls.cert, key: options.tls.key },
          })
        : serve({ ...listen, serverOptions })
    ) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const url = formatUrl(options.host, port, options.tls ? 'https' : 'http');
      let closing: Promise<void> | undefined;
      const close = () => {
        closing ??= shutDown(server, graceMs, options.onShutdown);
        return closing;
      };
      if (options.exitOnSignal !== false) installSignalHandlers(close, options.logger);
      announce(`listening on ${url}`);
      options.logger?.info({ url }, 'listening');
      resolve({ url, port, server, close });
    });
  });
}

async function shutDown(server: Server, graceMs: number, onShutdown?: () => void | Promise<void>) {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive socket becomes idle once its in-flight response ends and would then hold
  // close() open until the client's own timeout: sweep idle sockets until the server stops.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const forced = setTimeout(() => server.closeAllConnections(), graceMs);
  await stopped;
  clearInterval(sweep);
  clearTimeout(forced);
  await onShutdown?.();
}

function installSignalHandlers(close: () => Promise<void>, logger?: Logger) {
  const onSignal = (signal: NodeJS.Signals) => {
    logger?.info({ signal }, 'shutting down');
    close().then(
      () => {
        logger?.flush?.();
        process.exit(0);
      },
      (error: unknown) => {
        logger?.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
