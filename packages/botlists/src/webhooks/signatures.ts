/**
 * @module Webhook authentication primitives: constant-time compares over raw bytes, HMAC-SHA256, the `t=…,v1=…` scheme.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signed deliveries older (or further in the future) than this are refused (spec §7: 10 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 600;

/**
 * Constant-time equality of two secrets. Both sides are HMAC'd first so the comparison takes
 * the same time whatever their lengths (timingSafeEqual itself throws on a length mismatch).
 */
export function secretsEqual(given: string | Uint8Array, expected: string | Uint8Array): boolean {
  const key = 'botlists-compare';
  const a = createHmac('sha256', key).update(given).digest();
  const b = createHmac('sha256', key).update(expected).digest();
  return timingSafeEqual(a, b);
}

export function hmacHex(key: string, ...parts: (string | Uint8Array)[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
}

/** Compares a hex signature (optionally `sha256=`-prefixed, any case) with the HMAC of the raw body. */
export function verifyHmac(signature: string, key: string, raw: Uint8Array, prefix?: string): boolean {
  const given = signature
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = prefix === undefined ? hmacHex(key, raw) : hmacHex(key, `${prefix}.`, raw);
  return secretsEqual(given, expected);
}

export type SignedDeliveryResult = 'ok' | 'malformed' | 'stale' | 'mismatch';

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
