/**
 * @module Refuses a second copy of a proven delivery: the digest of what was signed is kept for
 * as long as the signature would still be accepted.
 */
import { createHash } from 'node:crypto';
import { ExpiringMap } from './expiring-map.js';
import { SIGNATURE_TOLERANCE_SECONDS } from './signatures.js';
import type { DeliveryProof } from './webhook-auth.js';

/**
 * How long a delivery is remembered: a `t=` signature is accepted while `t` is within the
 * tolerance of now in either direction, so a copy can arrive up to twice the tolerance later.
 */
const REPLAY_WINDOW_MS = 2 * SIGNATURE_TOLERANCE_SECONDS * 1000;

/**
 * Deliveries remembered at once by default (about 150 bytes each, 30 MB): 166 signed deliveries a
 * second for 20 minutes. Only deliveries that verified can fill it (a forger cannot), so beyond it
 * new ones get a 503 and the list redelivers them later.
 */
const DEFAULT_REMEMBERED_DELIVERIES = 200_000;

type ReplayVerdict = 'first' | 'replay' | 'full';

export class ReplayGuard {
  private readonly seen: ExpiringMap<true>;

  constructor(capacity: number = DEFAULT_REMEMBERED_DELIVERIES) {
    this.seen = new ExpiringMap<true>(capacity);
  }

  /** Records the delivery; `replay` when the same signed content was accepted within the window. */
  check(listId: string, proof: DeliveryProof, raw: Uint8Array, now: number): ReplayVerdict {
    const key = createHash('sha256')
      .update(`${listId}\n${proof.kind}\n${proof.timestamp ?? ''}\n`)
      .update(raw)
      .digest('base64');
    if (this.seen.get(key, now)) return 'replay';
    return this.seen.set(key, true, now + REPLAY_WINDOW_MS, now) ? 'first' : 'full';
  }
}
