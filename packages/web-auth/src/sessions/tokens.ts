/**
 * @module Session secrets: the 256-bit cookie token, the SHA-256 under which it is stored, the CSRF
 * token derived from it, and constant-time comparison.
 *
 * The CSRF token is HMAC-SHA256(session token, label): unpredictable without the session token,
 * different for every session, recomputable on every request (so `/me` can return it), and nothing
 * about it is stored: a copy of the database yields neither session tokens nor CSRF tokens.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes in base64url without padding: always 43 characters. */
const sessionTokenLength = 43;

const csrfLabel = 'suite/web-auth csrf v1';

export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True for exactly 43 base64url characters; checked before any hashing or database work. */
export function isWellFormedToken(token: unknown): token is string {
  if (typeof token !== 'string' || token.length !== sessionTokenLength) return false;
  for (let index = 0; index < token.length; index++) {
    const code = token.charCodeAt(index);
    const ok =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 45 ||
      code === 95;
    if (!ok) return false;
  }
  return true;
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(csrfLabel).digest('base64url');
}

/** Constant-time equality of two strings of any length (both are hashed to 32 bytes first). */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
