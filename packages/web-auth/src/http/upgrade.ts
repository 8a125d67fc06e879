/**
 * @module The checks for a WebSocket upgrade handled on the Node server's `upgrade` event, before
 * the handshake is accepted (browsers apply neither the same-origin policy nor CORS to it and
 * cannot add a CSRF header): Host allow-list, an allowed Origin (required by default), then the
 * session cookie. Returns the verdict; the caller writes the HTTP refusal on the socket.
 */
import { readSessionCookie } from '../sessions/cookie.js';
import type { WebAuth } from '../web-auth.js';
import { type HostRules, isAllowedHost } from './host-rules.js';
import { isAllowedOrigin, type OriginRules } from './origin-rules.js';
import { type AuthErrorCode, type AuthErrorStatus, type AuthState, authErrorStatus } from './types.js';

export interface AuthorizeUpgradeOptions {
  auth: Pick<WebAuth, 'sessions'>;
  cookieName: string;
  hosts: HostRules;
  allowedOrigins?: OriginRules['allowedOrigins'];
  allowUpgradeWithoutOrigin?: OriginRules['allowUpgradeWithoutOrigin'];
}

export type UpgradeVerdict =
  | { ok: true; auth: AuthState }
  | { ok: false; status: AuthErrorStatus; code: AuthErrorCode; message: string };

/** Node's `IncomingMessage.headers` (lower-case names) or any such record. */
export type RawHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

function toHeaders(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    try {
      for (const item of typeof value === 'string' ? [value] : value) headers.append(name, item);
    } catch {
      // A header value the Fetch API refuses: leave it out (it cannot be a valid Origin or cookie).
    }
  }
  return headers;
}

const refuse = (code: AuthErrorCode, message: string): UpgradeVerdict => ({
  ok: false,
  status: authErrorStatus[code],
  code,
  message,
});

export async function authorizeUpgrade(
  raw: RawHeaders,
  options: AuthorizeUpgradeOptions,
): Promise<UpgradeVerdict> {
  const headers = toHeaders(raw);
  if (!isAllowedHost(headers.get('host') ?? undefined, options.hosts)) {
    return refuse('HOST_NOT_ALLOWED', 'this Host is not allowed');
  }
  const originRules: OriginRules = {
    hosts: options.hosts,
    allowedOrigins: options.allowedOrigins,
    allowUpgradeWithoutOrigin: options.allowUpgradeWithoutOrigin,
  };
  // Judged as an upgrade whatever the request says, so a missing Upgrade header cannot skip the check.
  headers.set('upgrade', 'websocket');
  if (!isAllowedOrigin('GET', headers, originRules)) {
    return refuse('ORIGIN_NOT_ALLOWED', 'this Origin may not open a WebSocket here');
  }
  const token = readSessionCookie(headers.get('cookie'), options.cookieName);
  const valid = token === undefined ? undefined : await options.auth.sessions.validate(token);
  if (!valid || token === undefined) return refuse('AUTH_REQUIRED', 'sign in first');
  return { ok: true, auth: { ...valid, token } };
}
