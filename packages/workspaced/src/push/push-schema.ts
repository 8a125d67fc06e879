/**
 * @module A browser's `PushSubscription.toJSON()` as `POST /push/subscriptions` takes it:
 * `{endpoint, keys: {p256dh, auth}}` (`expirationTime` allowed and ignored). The keys are checked
 * for what RFC 8291 needs: `p256dh` an uncompressed P-256 point that lies on the curve, `auth`
 * 16 bytes; the endpoint is an absolute URL of at most 2,048 characters (push-endpoint.ts checks
 * where it may point).
 */
import { ECDH } from 'node:crypto';
import { z } from 'zod';

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

function isP256Point(text: string): boolean {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // Throws for a point that is not on the curve.
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

export const subscriptionInputSchema = z
  .object({
    endpoint: z.string().max(2048),
    expirationTime: z.number().nullable().optional(),
    keys: z
      .object({
        p256dh: base64url.max(100).refine(isP256Point, 'an uncompressed P-256 public key (65 bytes)'),
        auth: base64url.max(32).refine((text) => Buffer.from(text, 'base64url').length === 16, '16 bytes'),
      })
      .strict(),
  })
  .strict();
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;
