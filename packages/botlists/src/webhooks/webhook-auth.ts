/**
 * @module Decides whether one webhook delivery is authentic: shared secret, signed `t=,v1=` delivery,
 * per-list HMAC header, or a JWT body, always over the raw bytes received.
 */
import type { BotlistRecord } from '../types.js';
import { verifyHs256 } from './jwt.js';
import { secretsEqual, verifyHmac, verifySignedDelivery } from './signatures.js';

/** Headers that may carry the shared secret (a `Bearer`/`Basic` prefix is ignored). */
export const SECRET_HEADERS = ['authorization', 'x-webhook-authentication', 'x-webhook-secret'] as const;
/** Headers that may carry a hex HMAC-SHA256 of the raw body (optionally `sha256=`-prefixed). */
export const HMAC_HEADERS = [
  'x-signature-256',
  'x-hub-signature-256',
  'x-signature',
  'x-signature-sha256',
  'x-forge-signature',
  'x-topbot-signature',
] as const;

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface AuthKeys {
  secret: string | undefined;
  hmacKey: string | undefined;
  requireSecret: boolean;
}

export type AuthResult =
  | { ok: true; jwtClaims: Record<string, unknown> | null }
  | { ok: false; reason: string };

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function checkSecret(
  list: BotlistRecord,
  headers: HeaderBag,
  raw: Uint8Array,
  secret: string,
  now: number,
): AuthResult {
  const signedHeader = list.signatureHeader ? headerValue(headers, list.signatureHeader) : undefined;
  if (signedHeader !== undefined) {
    const verdict = verifySignedDelivery(signedHeader, secret, raw, now);
    return verdict === 'ok' ? { ok: true, jwtClaims: null } : { ok: false, reason: `signature ${verdict}` };
  }
  for (const name of SECRET_HEADERS) {
    const given = headerValue(headers, name);
    if (given === undefined) continue;
    const value = given.replace(/^(Bearer|Basic)\s+/i, '');
    return secretsEqual(value, secret)
      ? { ok: true, jwtClaims: null }
      : { ok: false, reason: 'wrong secret' };
  }
  // dlist.gg sends no header: the whole body is an HS256 token signed with the secret.
  const text = Buffer.from(raw).toString('utf8').trim();
  if (JWT_SHAPE.test(text)) {
    const claims = verifyHs256(text, secret, now);
    return claims ? { ok: true, jwtClaims: claims } : { ok: false, reason: 'invalid token body' };
  }
  return { ok: false, reason: 'missing secret' };
}

/**
 * Every configured check must pass: the list's secret (header, signed delivery or JWT body) and
 * its HMAC key. With nothing configured the delivery passes only when `requireSecret` is false.
 */
export function authenticate(
  list: BotlistRecord,
  headers: HeaderBag,
  raw: Uint8Array,
  keys: AuthKeys,
  now: number,
): AuthResult {
  let jwtClaims: Record<string, unknown> | null = null;
  if (keys.secret) {
    const result = checkSecret(list, headers, raw, keys.secret, now);
    if (!result.ok) return result;
    jwtClaims = result.jwtClaims;
  }
  if (keys.hmacKey) {
    const name = HMAC_HEADERS.find((h) => headerValue(headers, h) !== undefined);
    if (!name) return { ok: false, reason: 'missing HMAC signature' };
    // topbot.gg signs `<x-topbot-timestamp>.<body>`.
    const timestamp = name === 'x-topbot-signature' ? headerValue(headers, 'x-topbot-timestamp') : undefined;
    if (!verifyHmac(headerValue(headers, name) ?? '', keys.hmacKey, raw, timestamp)) {
      return { ok: false, reason: 'bad HMAC signature' };
    }
  }
  if (!keys.secret && !keys.hmacKey && keys.requireSecret)
    return { ok: false, reason: 'no secret configured for this list' };
  return { ok: true, jwtClaims };
}
