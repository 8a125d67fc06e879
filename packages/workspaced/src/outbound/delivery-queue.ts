/**
 * @module One queue for every outbound delivery (notification webhooks, platform webhooks and
 * Web Push messages):
 * at most `concurrency` run at once (8 by default: each holds one outbound connection through its
 * retries), the others wait in order. Waiting deliveries are bounded by the bytes of their bodies
 * (16 MiB by default); past it a delivery is not attempted and reports `failed` with the error
 * `the delivery queue is full`. So 30 events matching 100 rules open 8 connections, not 3,000.
 * A payload sent to many targets (one event, every matching webhook) is serialized once.
 */
import {
  type Delivery,
  type DeliveryPolicy,
  type DeliveryResult,
  deliver,
  notAttempted,
  type OutboundRequest,
  post,
  serializePayload,
} from './signed-delivery.js';

interface DeliveryQueueLimits {
  concurrency: number;
  maxWaitingBytes: number;
}

const defaultDeliveryQueueLimits: DeliveryQueueLimits = {
  concurrency: 8,
  maxWaitingBytes: 16 * 1024 * 1024,
};

interface Waiting {
  send: () => Promise<DeliveryResult>;
  bytes: number;
  done: (result: DeliveryResult) => void;
}

export class DeliveryQueue {
  private readonly waiting: Waiting[] = [];
  private waitingBytes = 0;
  private running = 0;

  constructor(
    private readonly policy: DeliveryPolicy,
    private readonly limits: DeliveryQueueLimits = defaultDeliveryQueueLimits,
  ) {}

  /** Figures for tests and observability. */
  get stats() {
    return { running: this.running, waiting: this.waiting.length, waiting_bytes: this.waitingBytes };
  }

  /** Queues a signed POST; resolves with its result once it ran (or was refused). Never rejects. */
  deliver(delivery: Delivery): Promise<DeliveryResult> {
    return this.deliverToEach([delivery], delivery.event, delivery.payload)[0]!;
  }

  /** Queues one signed POST of `payload` to each target, serialized once; results in their order. */
  deliverToEach(
    targets: readonly Pick<Delivery, 'url' | 'secret'>[],
    event: string,
    payload: unknown,
  ): Promise<DeliveryResult>[] {
    const body = serializePayload(payload);
    return targets.map(({ url, secret }) =>
      body === undefined
        ? Promise.resolve(notAttempted('the payload could not be serialized as JSON'))
        : this.enqueue(Buffer.byteLength(body), () => deliver({ url, secret, event, body }, this.policy)),
    );
  }

  /** Queues a prepared POST (its own headers, no signature); resolves like `deliver`. */
  post(request: OutboundRequest): Promise<DeliveryResult> {
    return this.enqueue(Buffer.byteLength(request.body), () => post(request, this.policy));
  }

  private enqueue(bytes: number, send: () => Promise<DeliveryResult>): Promise<DeliveryResult> {
    if (this.waitingBytes + bytes > this.limits.maxWaitingBytes)
      return Promise.resolve(notAttempted('the delivery queue is full'));
    return new Promise((done) => {
      this.waiting.push({ send, bytes, done });
      this.waitingBytes += bytes;
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.limits.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      this.waitingBytes -= item.bytes;
      this.running++;
      void item
        .send()
        .catch((error: unknown) => notAttempted(`delivery failed: ${(error as Error).message}`))
        .then((result) => {
          this.running--;
          item.done(result);
          this.next();
        });
    }
  }
}
