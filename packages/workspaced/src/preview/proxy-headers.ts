/**
 * @module What crosses the preview proxy in each direction.
 *
 * Upstream: every request header but the hop-by-hop ones (RFC 9110 7.6.1: `Connection` and every
 * header it names, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`,
 * `Upgrade`, `Proxy-Authorization`), the daemon's CSRF header and the daemon's two cookies
 * (`workspaced_session`, `workspaced_preview`); the app's own cookies and `Authorization` pass.
 * `Host` is kept (the preview host name, which dev servers accept as a `.localhost` name) and
 * `X-Forwarded-For/-Host/-Proto` replace whatever the client sent.
 *
 * Downstream: every response header but the hop-by-hop ones; `Set-Cookie` loses its `Domain`
 * attribute (a cookie stays on its own preview host and cannot be set for `localhost` or a sibling
 * preview) and a cookie named like one of the daemon's is dropped (it would shadow the pass).
 */
import { csrfHeaderName, sessionCookieName } from '../auth/request-security.js';

export const previewCookieName = 'workspaced_preview';

const daemonCookies = new Set([sessionCookieName, previewCookieName]);

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

const replacedOnRequest = new Set([
  'host',
  csrfHeaderName.toLowerCase(),
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);

/** Flat `[name, value, name, value, ...]` as Node's `rawHeaders`, order and repeats kept. */
export type RawHeaders = string[];

function droppedNames(raw: RawHeaders): Set<string> {
  const dropped = new Set(hopByHop);
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const token of raw[i + 1]!.split(',')) dropped.add(token.trim().toLowerCase());
  return dropped;
}

/** The `Cookie` header without the daemon's cookies, or undefined when nothing is left. */
function withoutDaemonCookies(cookieHeader: string): string | undefined {
  const kept = cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !daemonCookies.has(pair.split('=', 1)[0]!.trim()));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

interface ForwardedFor {
  clientAddress: string | undefined;
  host: string;
  /** Keep `Connection: Upgrade` / `Upgrade: websocket` (a WebSocket handshake). */
  upgrade: boolean;
}

export function upstreamRequestHeaders(raw: RawHeaders, forwarded: ForwardedFor): RawHeaders {
  const dropped = droppedNames(raw);
  // One Host, the one the preview origin checked (a second one could name something else).
  const out: RawHeaders = ['Host', forwarded.host];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (dropped.has(lower) || replacedOnRequest.has(lower)) continue;
    if (lower === 'cookie') {
      const kept = withoutDaemonCookies(raw[i + 1]!);
      if (kept !== undefined) out.push(name, kept);
      continue;
    }
    out.push(name, raw[i + 1]!);
  }
  // A chunked body is re-chunked upstream: Node only does so by itself for some methods (not DELETE).
  if (
    dropped.has('transfer-encoding') &&
    raw.some((value, i) => i % 2 === 0 && value.toLowerCase() === 'transfer-encoding')
  )
    out.push('Transfer-Encoding', 'chunked');
  if (forwarded.upgrade) out.push('Connection', 'Upgrade', 'Upgrade', 'websocket');
  if (forwarded.clientAddress) out.push('X-Forwarded-For', forwarded.clientAddress);
  out.push('X-Forwarded-Host', forwarded.host, 'X-Forwarded-Proto', 'http');
  return out;
}

/** A `Set-Cookie` value made host-only, or undefined when it would set a daemon cookie. */
function previewSetCookie(value: string): string | undefined {
  const [pair = '', ...attributes] = value.split(';');
  if (daemonCookies.has(pair.split('=', 1)[0]!.trim())) return undefined;
  const kept = attributes.filter(
    (attribute) => attribute.split('=', 1)[0]!.trim().toLowerCase() !== 'domain',
  );
  return [pair, ...kept].join(';');
}

/** Response headers for the browser; `keepUpgrade` for a 101 answer. */
export function downstreamResponseHeaders(raw: RawHeaders, keepUpgrade = false): RawHeaders {
  const dropped = droppedNames(raw);
  if (keepUpgrade) {
    dropped.delete('connection');
    dropped.delete('upgrade');
  }
  const out: RawHeaders = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (dropped.has(lower)) continue;
    if (lower === 'set-cookie') {
      const cookie = previewSetCookie(raw[i + 1]!);
      if (cookie !== undefined) out.push(name, cookie);
      continue;
    }
    out.push(name, raw[i + 1]!);
  }
  return out;
}
