/**
 * @module Which `Origin` values may send a state-changing request or open a WebSocket.
 *
 * - Safe methods (GET, HEAD, OPTIONS) that are not WebSocket upgrades are not checked.
 * - `Origin` absent: allowed for ordinary requests (browsers always send Origin on POST, PUT,
 *   PATCH and DELETE, so its absence means a non-browser client such as curl or the CLI, which
 *   still needs the session and CSRF token); refused for WebSocket upgrades unless
 *   `allowUpgradeWithoutOrigin` is set, because an upgrade carries no CSRF header and browsers
 *   always send Origin on it.
 * - `Origin: null` (sandboxed frames, file: pages, some redirects) is refused.
 * - Otherwise the origin must be `http:` or `https:` with no path, and either listed in
 *   `allowedOrigins` exactly or have a host the Host allow-list accepts.
 */
import { type HostRules, isAllowedHost } from './host-rules.js';

export interface OriginRules {
  hosts: HostRules;
  /** Extra exact origins, e.g. `https://firewarden.example.com`. */
  allowedOrigins?: readonly string[];
  /** Accept WebSocket upgrades with no Origin header (non-browser clients); default false. */
  allowUpgradeWithoutOrigin?: boolean;
}

const maxOriginLength = 300;

export function isWebSocketUpgrade(headers: Pick<Headers, 'get'>): boolean {
  return headers.get('upgrade')?.toLowerCase() === 'websocket';
}

/** True when the request may proceed as far as its Origin is concerned. */
export function isAllowedOrigin(method: string, headers: Pick<Headers, 'get'>, rules: OriginRules): boolean {
  const upgrade = isWebSocketUpgrade(headers);
  if (!upgrade && (method === 'GET' || method === 'HEAD' || method === 'OPTIONS')) return true;
  const origin = headers.get('origin');
  if (origin === null) return !upgrade || rules.allowUpgradeWithoutOrigin === true;
  if (origin.length > maxOriginLength || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.toLowerCase())
    return false;
  if (rules.allowedOrigins?.some((allowed) => allowed.toLowerCase() === url.origin)) return true;
  return isAllowedHost(url.host, rules.hosts);
}
