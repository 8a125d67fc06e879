/**
 * @module Decides whether one webhook delivery is authentic: shared secret, signed `t=,v1=` delivery,
 * per-list HMAC header, or a JWT body, always over the raw bytes received.
 */
import type { BotlistRecord } from '../types.js';
import { verifyHs256 } from './jwt.js';
import { secretsEqual, verifyHmac, verifySignedDelivery } from './signatures.js';

/** Headers that may carry the shared secret (a `Bearer`/`Basic` prefix is ignored). */
const SECRET_HEADERS = ['authorization', 'x-webhook-authentication', 'x-webhook-secret'] as const;
/** Headers that may carry a hex HMAC-SHA256 of the raw body (optionally `sha256=`-prefixed). */
const HMAC_HEADERS = [
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
  /** Whether a delivery proven by the bare secret alone (replayable) is accepted. */
  acceptSecretOnly: boolean;
}

/**
 * What made a delivery unforgeable, and so recognisable when replayed: a timestamped signature,
 * a signed token body, or a body HMAC. A bare shared secret proves nothing about the body.
 */
export interface DeliveryProof {
  kind: 'signature' | 'token' | 'hmac';
  /** The signed timestamp, when the scheme has one. */
  timestamp?: string;
}

export type AuthResult =
  | { ok: true; jwtClaims: Record<string, unknown> | null; proof: DeliveryProof | null }
  | { ok: false; reason: string };

function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The `t=` part of a verified `t=…,v1=…` header. */
function signedTimestamp(header: string): string {
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=');
    if (name === 't' && value) return value;
  }
  return '';
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
    if (verdict !== 'ok') return { ok: false, reason: `signature ${verdict}` };
    return {
      ok: true,
      jwtClaims: null,
      proof: { kind: 'signature', timestamp: signedTimestamp(signedHeader) },
    };
  }
  for (const name of SECRET_HEADERS) {
    const given = headerValue(headers, name);
    if (given === undefined) continue;
    const value = given.replace(/^(Bearer|Basic)\s+/i, '');
    return secretsEqual(value, secret)
      ? { ok: true, jwtClaims: null, proof: null }
      : { ok: false, reason: 'wrong secret' };
  }
  // dlist.gg sends no header: the whole body is an HS256 token signed with the secret.
  const text = Buffer.from(raw).toString('utf8').trim();
  if (JWT_SHAPE.test(text)) {
    const claims = verifyHs256(text, secret, now);
    return claims
      ? { ok: true, jwtClaims: claims, proof: { kind: 'token' } }
      : { ok: false, reason: 'invalid token body' };
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
  let proof: DeliveryProof | null = null;
  if (keys.secret) {
    const result = checkSecret(list, headers, raw, keys.secret, now);
    if (!result.ok) return result;
    jwtClaims = result.jwtClaims;
    proof = result.proof;
  }
  if (keys.hmacKey) {
    const name = HMAC_HEADERS.find((h) => headerValue(headers, h) !== undefined);
    if (!name) return { ok: false, reason: 'missing HMAC signature' };
    // topbot.gg signs `<x-topbot-timestamp>.<body>`.
    const timestamp = name === 'x-topbot-signature' ? headerValue(headers, 'x-topbot-timestamp') : undefined;
    if (!verifyHmac(headerValue(headers, name) ?? '', keys.hmacKey, raw, timestamp)) {
      return { ok: false, reason: 'bad HMAC signature' };
    }
    proof ??= timestamp === undefined ? { kind: 'hmac' } : { kind: 'hmac', timestamp };
  }
  if (!keys.secret && !keys.hmacKey && keys.requireSecret)
    return { ok: false, reason: 'no secret configured for this list' };
  if (!proof && keys.secret && !keys.acceptSecretOnly)
    return { ok: false, reason: 'secret-only delivery refused (acceptSecretOnly is off)' };
  return { ok: true, jwtClaims, proof };
}
