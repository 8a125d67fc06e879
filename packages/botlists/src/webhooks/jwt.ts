/**
 * @module HS256 JWT verification for lists whose whole webhook body is a signed token (dlist.gg).
 */
import { createHmac } from 'node:crypto';
import { secretsEqual } from './signatures.js';

/** Claims of a valid token, or null when the token is malformed, not HS256, badly signed or expired. */
export function verifyHs256(token: string, secret: string, nowMs: number): Record<string, unknown> | null {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (head.alg !== 'HS256') return null;
    if (
      !secretsEqual(
        signature,
        createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url'),
      )
    )
      return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
    const exp = (claims as { exp?: unknown }).exp;
    if (typeof exp === 'number' && exp * 1000 < nowMs) return null;
    return claims as Record<string, unknown>;
  } catch {
    return null;
  }
}
