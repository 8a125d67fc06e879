/**
 * @module Webhook authentication primitives: constant-time compares over raw bytes, HMAC-SHA256, the `t=…,v1=…` scheme.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** Signed deliveries older (or further in the future) than this are refused (spec §7: 10 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 600;

const toBuffer = (value: string | Uint8Array) =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : value;

/**
 * Constant-time equality of two secrets, byte for byte. Only the length can leak (as with every
 * timingSafeEqual use); the content never does: a length mismatch still runs a full comparison.
 */
export function secretsEqual(given: string | Uint8Array, expected: string | Uint8Array): boolean {
  const a = toBuffer(given);
  const b = toBuffer(expected);
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Key objects are cached: building one per request costs more than the HMAC itself. */
const keyCache = new Map<string, KeyObject>();
function keyObject(key: string): KeyObject {
  let cached = keyCache.get(key);
  if (!cached) {
    if (keyCache.size > 256) keyCache.clear();
    cached = createSecretKey(Buffer.from(key, 'utf8'));
    keyCache.set(key, cached);
  }
  return cached;
}

function hmacDigest(key: string, prefix: string | undefined, raw: Uint8Array): Buffer {
  const mac = createHmac('sha256', keyObject(key));
  if (prefix !== undefined) mac.update(`${prefix}.`);
  return mac.update(raw).digest();
}

/** Compares a hex signature (optionally `sha256=`-prefixed, any case) with the HMAC of the raw body. */
export function verifyHmac(signature: string, key: string, raw: Uint8Array, prefix?: string): boolean {
  const given = signature
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), hmacDigest(key, prefix, raw));
}

type SignedDeliveryResult = 'ok' | 'malformed' | 'stale' | 'mismatch';

/**
 * Verifies `t=<unix seconds>,v1=<hex>` where v1 = HMAC-SHA256(secret, `<t>.<rawBody>`), the
 * scheme of top.gg v1 (`x-topgg-signature`) and DisQ (`x-disq-signature`). Several v1 values
 * (key rotation) are accepted if any matches.
 */
export function verifySignedDelivery(
  header: string,
  secret: string,
  raw: Uint8Array,
  nowMs: number,
): SignedDeliveryResult {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, ...rest] = part.trim().split('=');
    const value = rest.join('=');
    if (name === 't') timestamp = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return 'malformed';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const matched = signatures.some((sig) => verifyHmac(sig, secret, raw, timestamp));
  return matched ? 'ok' : 'mismatch';
}
