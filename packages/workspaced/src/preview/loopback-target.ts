/**
 * @module The request a preview makes upstream, and where it connects: the previewed port on 127.0.0.1, then on [::1] if nothing
 * answers there (dev servers that bind `localhost` often get only the IPv6 address). The address
 * list is fixed here, never looked up in DNS, so no name can steer a preview off the machine;
 * Node's happy-eyeballs connect (`autoSelectFamily`) tries the second when the first refuses.
 */
import type { LookupAddress } from 'node:dns';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { upstreamRequestHeaders } from './proxy-headers.js';

const loopbackAddresses: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

type LookupCallback = (error: null, address: string | LookupAddress[], family?: number) => void;

function loopbackLookup(_hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  if (options.all) callback(null, loopbackAddresses);
  else callback(null, loopbackAddresses[0]!.address, loopbackAddresses[0]!.family);
}

/** The browser's request (or WebSocket handshake) replayed to the previewed port, not yet ended. */
export function requestUpstream(
  request: IncomingMessage,
  port: number,
  options: { upgrade: boolean },
): ClientRequest {
  return http.request({
    ...loopbackConnection(port),
    method: request.method,
    path: request.url,
    setHost: false,
    headers: upstreamRequestHeaders(request.rawHeaders, {
      clientAddress: request.socket.remoteAddress,
      host: request.headers.host ?? '',
      upgrade: options.upgrade,
    }),
  });
}

function loopbackConnection(port: number): RequestOptions {
  return {
    host: 'preview-target',
    port,
    lookup: loopbackLookup as unknown as RequestOptions['lookup'],
    autoSelectFamily: true,
    // One connection per proxied request: no pool shared between users or previews.
    agent: false,
  } as RequestOptions;
}
