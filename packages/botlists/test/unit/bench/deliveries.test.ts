import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

interface Delivery {
  body: string;
  headers: Record<string, string>;
}
interface Stream {
  next(): Delivery;
  overrun: boolean;
}
// The benchmark is plain JavaScript run by node; a path held in a variable keeps tsc from resolving it.
const modulePath = '../../../bench/deliveries.mjs';
const { DeliveryStream } = (await import(modulePath)) as {
  DeliveryStream: new (size: number, options?: { hmacKey?: string; repeatable?: boolean }) => Stream;
};

describe('benchmark deliveries', () => {
  it("a replay-refusing server's stream never repeats a body and reports drawing past its end", () => {
    const stream = new DeliveryStream(500, { hmacKey: 'k' });
    const drawn = Array.from({ length: 500 }, () => stream.next());
    expect(new Set(drawn.map((d) => d.body)).size).toBe(500);
    expect(new Set(drawn.map((d) => JSON.parse(d.body).user)).size).toBe(500); // a new voter each time
    for (const { body, headers } of drawn)
      expect(headers['x-signature-256']).toBe(
        `sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`,
      );
    expect(stream.overrun).toBe(false);
    stream.next();
    expect(stream.overrun).toBe(true);
  });

  it('a stream for servers that refuse nothing may wrap without voiding the run', () => {
    const stream = new DeliveryStream(3, { repeatable: true });
    const bodies = Array.from({ length: 7 }, () => stream.next().body);
    expect(bodies[3]).toBe(bodies[0]);
    expect(stream.overrun).toBe(false);
  });
});
