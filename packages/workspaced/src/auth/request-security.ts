/**
 * @module The security baseline as Hono middleware, built from @suite/web-auth with the daemon's
 * names (cookie `workspaced_session`, header `X-Workspaced-CSRF`) and its JSON error shape:
 * Host allow-list (DNS rebinding), Origin check on mutations and upgrades, session loading,
 * CSRF on every mutation under a session. The WebSocket upgrades apply the same rules through
 * web-auth's `authorizeUpgrade` (realtime/upgrade-handler.ts).
 */
import {
  type AuthErrorWriter,
  hostAllowList,
  loadSession,
  originCheck,
  requireCsrf,
  requireSession,
  type WebAuth,
} from '@suite/web-auth';
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../http/api-error.js';

export const sessionCookieName = 'workspaced_session';
export const csrfHeaderName = 'X-Workspaced-CSRF';

interface RequestSecurityOptions {
  auth: WebAuth;
  /** The listening port, known only once the server listens (`--port 0`). */
  port: () => number | undefined;
  /** Extra Host names (`--allowed-host`), e.g. `devbox.example.com` behind a proxy. */
  allowedHosts: readonly string[];
  /** The loopback names of the address the daemon listens on (security/bind-policy.ts). */
  loopbackNames: readonly string[];
  /** Extra exact origins (`--allowed-origin`). */
  allowedOrigins: readonly string[];
}

const writeError: AuthErrorWriter = (_c, status, code, message) => errorResponse(status, code, message);

interface RequestSecurity {
  host: MiddlewareHandler;
  origin: MiddlewareHandler;
  session: MiddlewareHandler;
  requireSession: MiddlewareHandler;
  csrf: MiddlewareHandler;
}

export function requestSecurity(options: RequestSecurityOptions): RequestSecurity {
  const hosts = {
    port: options.port,
    allowedHosts: options.allowedHosts,
    loopbackNames: options.loopbackNames,
  };
  return {
    host: hostAllowList({ ...hosts, onError: writeError }),
    origin: originCheck({ hosts, allowedOrigins: options.allowedOrigins, onError: writeError }),
    session: loadSession({ auth: options.auth, cookieName: sessionCookieName }),
    requireSession: requireSession({ onError: writeError }),
    csrf: requireCsrf({ headerName: csrfHeaderName, onError: writeError }),
  };
}
