/**
 * @module Strong ETags from a fast non-cryptographic hash (pure JS, so edge runtimes work) and
 * `If-None-Match` matching (RFC 9110 section 13.1.2, weak comparison).
 */

/** cyrb53: 53-bit string hash with good dispersion; collisions only matter per URL here. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A strong entity tag for `body`, e.g. `"1k3x9c2a8d-4f2"`. */
export function etagOf(body: string): string {
  return `"${hash53(body).toString(36)}-${body.length.toString(36)}"`;
}

/** True when the client's `If-None-Match` lists `etag` (or `*`); `W/` prefixes are ignored. */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim().replace(/^W\//, '');
    if (tag === '*' || tag === etag) return true;
  }
  return false;
}
