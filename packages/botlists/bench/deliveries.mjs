/**
 * @module What the benchmark sends: every request a new top.gg v0 vote (a new voter id), made before
 * the run so the load generator only picks it. Our servers refuse a signed body they already
 * accepted (replay protection: 200 `duplicate`, no vote), so each of them gets its own stream that
 * never repeats within a run; servers that refuse nothing may share one that wraps around.
 */
import { createHmac } from 'node:crypto';

const FIRST_VOTER = 222222222222222222n;

export class DeliveryStream {
  /**
   * `size` bodies, signed (`x-signature-256`) when `hmacKey` is given. Without `repeatable` the
   * stream still wraps when drawn past its end (the run goes on), but `overrun` tells the run its
   * figures are void: the server answered copies it had already counted.
   */
  constructor(size, { hmacKey, repeatable = false } = {}) {
    this.repeatable = repeatable;
    this.overrun = false;
    this.drawn = 0;
    this.deliveries = Array.from({ length: size }, (_, index) => {
      const body = JSON.stringify({
        bot: '111111111111111111',
        user: String(FIRST_VOTER + BigInt(index)),
        type: 'upvote',
        isWeekend: false,
        query: '?ref=bench',
      });
      const signature = hmacKey && `sha256=${createHmac('sha256', hmacKey).update(body).digest('hex')}`;
      return { body, headers: signature ? { 'x-signature-256': signature } : {} };
    });
  }

  next() {
    const size = this.deliveries.length;
    if (this.drawn >= size && !this.repeatable) this.overrun = true;
    return this.deliveries[this.drawn++ % size];
  }
}
