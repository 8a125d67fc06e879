/**
 * @module Which `Host` values a server answers (against DNS rebinding, where an attacker's name
 * resolves to 127.0.0.1 and its page then talks to the daemon as "same origin").
 *
 * Allowed: the loopback names with the server's port (by default `localhost`, `127.0.0.1` and
 * `[::1]`; a server bound to one loopback address names only that one, see `loopbackNames`), plus
 * the configured names. A configured name without a port matches that name with no port or with the server's
 * port (a reverse proxy on 443 sends no port); `name:port` matches exactly that. A Host without a
 * port matches a loopback name only when the server's own port is 80 or 443. Names compare
 * case-insensitively; anything malformed (several colons outside brackets, a non-numeric port,
 * over 260 characters) is refused.
 */

export interface HostRules {
  /** The server's port; a function when it is known only once listening (`--port 0`). */
  port: number | (() => number | undefined);
  /** Extra names (`firewarden.example.com`, `myhost:8443`, `[2001:db8::1]`). */
  allowedHosts?: readonly string[];
  /**
   * The loopback names answered with the server's port (lower case, IPv6 in brackets); default
   * `localhost`, `127.0.0.1` and `[::1]`. A server listening on 127.0.0.1 only should list just
   * `127.0.0.1`: `[::1]` with the same port may be another process's socket, and a browser may
   * send `localhost` there, so answering those names would vouch for traffic it cannot own.
   */
  loopbackNames?: readonly string[];
}

interface HostParts {
  name: string;
  /** Undefined when the Host carries no port. */
  port: number | undefined;
}

const maxHostLength = 260;
const defaultLoopbackNames: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 5) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** Splits `name[:port]` / `[v6][:port]`, lower-cased; undefined when malformed. */
export function parseHost(host: string): HostParts | undefined {
  if (host.length === 0 || host.length > maxHostLength) return undefined;
  const text = host.toLowerCase();
  let name: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    name = text.slice(0, close + 1);
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    if (colon !== text.lastIndexOf(':')) return undefined;
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  if (name.length === 0) return undefined;
  if (rest === '') return { name, port: undefined };
  if (!rest.startsWith(':') || !isDigits(rest.slice(1))) return undefined;
  const port = Number(rest.slice(1));
  return port >= 1 && port <= 65_535 ? { name, port } : undefined;
}

function serverPort(rules: HostRules): number | undefined {
  return typeof rules.port === 'function' ? rules.port() : rules.port;
}

/** True when `host` (a Host header value, or the host of an Origin) is one the server answers to. */
export function isAllowedHost(host: string | undefined, rules: HostRules): boolean {
  const parts = host === undefined ? undefined : parseHost(host);
  if (!parts) return false;
  const ownPort = serverPort(rules);
  const portMatches =
    parts.port === undefined
      ? ownPort === 80 || ownPort === 443
      : ownPort !== undefined && parts.port === ownPort;
  if (portMatches && (rules.loopbackNames ?? defaultLoopbackNames).includes(parts.name)) return true;
  for (const entry of rules.allowedHosts ?? []) {
    const allowed = parseHost(entry);
    if (!allowed || allowed.name !== parts.name) continue;
    if (
      allowed.port === undefined
        ? parts.port === undefined || parts.port === ownPort
        : allowed.port === parts.port
    ) {
      return true;
    }
  }
  return false;
}
