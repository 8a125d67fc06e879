/**
 * @module What the node routes accept. A node's URL is an origin (`http(s)://host[:port]`, no
 * user name, password, path, query or fragment): the daemon only ever calls `<origin>/api/v1/...`
 * on it, so a registered node cannot be turned into a request to any other address.
 */
import { z } from 'zod';

const nodeOrigin = z
  .string()
  .max(2_048)
  .transform((text, context) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    const ok =
      url !== undefined &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !url.username &&
      !url.password &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !text.includes('?') &&
      !text.includes('#');
    if (!ok) {
      context.addIssue({
        code: 'custom',
        message: 'the node origin: http(s)://host[:port], nothing after it',
      });
      return z.NEVER;
    }
    return url.origin;
  });

/** 32 bytes in base64url: an Ed25519 public key, a challenge. */
const base64url32 = z
  .string()
  .regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, '32 bytes in base64url (43 characters)');

export const newNodeSchema = z.object({
  name: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'name: 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit',
    ),
  url: nodeOrigin,
  /** The node's `GET /nodes/self` public key; without it the key is learnt when pairing. */
  public_key: base64url32.nullable().default(null),
});

/** A code as a person types it: generous about dashes and spaces, bounded in length. */
const pairingCode = z.string().min(1).max(32);

/** `POST /nodes/{id}/connect`: the code shown by the other daemon and its id for us there. */
export const connectSchema = z.object({
  remote_node_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  code: pairingCode,
});

/** `POST /nodes/pair` (public): what a daemon presents to redeem a code issued here. */
export const redeemSchema = z.object({
  node_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  code: pairingCode,
  /** Random bytes of the asking daemon, signed back with the credential. */
  challenge: base64url32,
});

/** The answer to a redeemed code, as the asking daemon checks it. */
export const redeemAnswerSchema = z.object({
  credential: z.string(),
  public_key: base64url32,
  signature: z.string().max(200),
});
