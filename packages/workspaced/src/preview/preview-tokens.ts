/**
 * @module Signed preview credentials, bound to a user, their daemon session and one port:
 *
 * - a **ticket** (60 s, single use) that the API origin puts in the redirect to the preview origin;
 * - a **pass** (until the daemon session's absolute end) that the preview origin keeps in its own
 *   host-only cookie after redeeming the ticket.
 *
 * Format `<base64url JSON>.<base64url HMAC-SHA256>`, keyed by 32 random bytes made at start-up (a
 * restart voids every preview credential). The `kind` field keeps a ticket from being used as a
 * pass and the other way round; the signature is compared in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface PreviewGrant {
  userId: string;
  sessionId: string;
  port: number;
}

interface SignedClaims extends PreviewGrant {
  kind: 'ticket' | 'pass';
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Tickets only: what makes each one single-use. */
  nonce?: string;
}

const ticketLifetimeMs = 60_000;
const maxTokenLength = 1_024;

export class PreviewTokens {
  readonly #key = randomBytes(32);
  /** Redeemed ticket nonces until their ticket expires. */
  readonly #redeemed = new Map<string, number>();

  issueTicket(grant: PreviewGrant, now = Date.now()): string {
    return this.#sign({
      ...grant,
      kind: 'ticket',
      expiresAt: now + ticketLifetimeMs,
      nonce: randomBytes(16).toString('base64url'),
    });
  }

  /** The grant of a valid, unexpired, never redeemed ticket for `port`; redeems it. */
  redeemTicket(token: string, port: number, now = Date.now()): PreviewGrant | undefined {
    const claims = this.#verify(token, 'ticket', port, now);
    if (!claims?.nonce) return undefined;
    for (const [nonce, expiresAt] of this.#redeemed) if (expiresAt <= now) this.#redeemed.delete(nonce);
    if (this.#redeemed.has(claims.nonce)) return undefined;
    this.#redeemed.set(claims.nonce, claims.expiresAt);
    return grantOf(claims);
  }

  issuePass(grant: PreviewGrant, expiresAt: number): string {
    return this.#sign({ ...grant, kind: 'pass', expiresAt });
  }

  readPass(token: string, port: number, now = Date.now()): PreviewGrant | undefined {
    const claims = this.#verify(token, 'pass', port, now);
    return claims && grantOf(claims);
  }

  #sign(claims: SignedClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.#mac(payload).toString('base64url')}`;
  }

  #verify(token: string, kind: SignedClaims['kind'], port: number, now: number): SignedClaims | undefined {
    if (token.length > maxTokenLength) return undefined;
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedClaims;
    if (claims.kind !== kind || claims.port !== port || !(claims.expiresAt > now)) return undefined;
    return claims;
  }

  #mac(payload: string): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest();
  }
}

function grantOf(claims: SignedClaims): PreviewGrant {
  return { userId: claims.userId, sessionId: claims.sessionId, port: claims.port };
}
