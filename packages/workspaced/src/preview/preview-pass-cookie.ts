/**
 * @module The preview origin's cookie: the signed pass, host-only on `p<port>.localhost` (no
 * `Domain`), `HttpOnly` so the previewed page's scripts cannot read it, `SameSite=Lax` because it
 * is set at the end of a cross-site redirect from the daemon's origin (a `Strict` cookie would not
 * be sent on the next hop of that same navigation), and gone when the daemon session ends.
 */
import { previewCookieName } from './proxy-headers.js';

const maxCookieHeaderLength = 16_384;

export function serializePassCookie(pass: string, expiresAt: number, now = Date.now()): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return `${previewCookieName}=${pass}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;
}

/** Every value of the pass cookie in a `Cookie` header (a page may have set a look-alike). */
export function readPassCookies(cookieHeader: string | undefined): string[] {
  if (!cookieHeader || cookieHeader.length > maxCookieHeaderLength) return [];
  const values: string[] = [];
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === previewCookieName)
      values.push(pair.slice(equals + 1).trim());
  }
  return values;
}
