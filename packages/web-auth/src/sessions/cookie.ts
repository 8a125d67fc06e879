/**
 * @module The session cookie: `Set-Cookie` values (HttpOnly, SameSite=Strict, Path=/, Secure when
 * asked) and reading the token back out of a `Cookie` header without regular expressions.
 */
import { isWellFormedToken } from './tokens.js';

export interface SessionCookieOptions {
  /** Adds `Secure` (set it whenever the product serves HTTPS). */
  secure?: boolean;
  /** Adds `Max-Age`; omit for a browser-session cookie (the server-side lifetime still applies). */
  maxAgeSeconds?: number;
}

/** Longest `Cookie` header read; browsers cap cookies near 4 KiB each, servers near 8-16 KiB total. */
const maxCookieHeaderLength = 16_384;

function attributes(options: SessionCookieOptions): string {
  return `; Path=/; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` value carrying the session token. */
export function serializeSessionCookie(
  name: string,
  token: string,
  options: SessionCookieOptions = {},
): string {
  const maxAge = options.maxAgeSeconds === undefined ? '' : `; Max-Age=${Math.trunc(options.maxAgeSeconds)}`;
  return `${name}=${token}${attributes(options)}${maxAge}`;
}

/** `Set-Cookie` value that removes the session cookie (logout). */
export function clearSessionCookie(name: string, options: Pick<SessionCookieOptions, 'secure'> = {}): string {
  return `${name}=${attributes(options)}; Max-Age=0`;
}

/** The well-formed session token of cookie `name` in a `Cookie` header, or undefined. */
export function readSessionCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  if (!cookieHeader || cookieHeader.length > maxCookieHeaderLength) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    // Several cookies of the same name (e.g. a sibling path): take the first well-formed one.
    if (isWellFormedToken(value)) return value;
  }
  return undefined;
}
