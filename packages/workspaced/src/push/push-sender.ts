/**
 * @module Sends a push message to every device of a user: web-push encrypts the JSON for each
 * subscription (RFC 8291 `aes128gcm`, a fresh salt and key per message) and signs the VAPID JWT
 * (RFC 8292, `aud` the push service's origin, 12 h expiry); the POST itself goes through the
 * shared outbound queue (outbound/delivery-queue.ts: the SSRF guard, timeout, retries of 429/5xx,
 * at most 8 at once), so a slow push service blocks nothing. A push service answering 404 or 410
 * says the subscription is gone (RFC 8030 section 7.3): it is deleted.
 */
import type { Logger } from 'pino';
import webPush from 'web-push';
import type { WorkspacedDb } from '../db/open-database.js';
import type { PushSubscriptionRow } from '../db/schema.js';
import { logDelivery } from '../outbound/delivery-log.js';
import type { DeliveryQueue } from '../outbound/delivery-queue.js';
import { type DeliveryResult, notAttempted } from '../outbound/signed-delivery.js';
import type { PushMessage } from './push-message.js';
import { forgetSubscription, listSubscriptions, markDelivered } from './push-subscription-store.js';
import type { VapidKeys } from './vapid-keys.js';

/**
 * How long a push service keeps a message for a device that is offline: an hour, after which
 * "needs input" is likely answered or stale.
 */
const timeToLiveSeconds = 3600;

interface PushSenderDeps {
  db: WorkspacedDb;
  vapid: VapidKeys;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact for the push service's operator. */
  subject: string;
  deliveries: DeliveryQueue;
  logger: Logger;
}

/** What a push to one user's devices did: one result per device. */
export interface PushReport {
  devices: number;
  results: DeliveryResult[];
}

const gone = (status: number | null) => status === 404 || status === 410;

export class PushSender {
  constructor(private readonly deps: PushSenderDeps) {}

  get publicKey(): string {
    return this.deps.vapid.publicKey;
  }

  async sendToUser(userId: string, message: PushMessage): Promise<PushReport> {
    const subscriptions = await listSubscriptions(this.deps.db, userId);
    const results = await Promise.all(subscriptions.map((row) => this.sendToDevice(row, message)));
    return { devices: subscriptions.length, results };
  }

  private async sendToDevice(row: PushSubscriptionRow, message: PushMessage): Promise<DeliveryResult> {
    let request: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      request = webPush.generateRequestDetails(
        { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
        JSON.stringify(message),
        {
          vapidDetails: { subject: this.deps.subject, ...this.deps.vapid },
          TTL: timeToLiveSeconds,
          urgency: 'high',
          topic: message.tag,
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (error) {
      return notAttempted(`the push could not be encrypted: ${(error as Error).message}`);
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    // The transport counts the bytes it sends itself.
    delete headers['content-length'];
    const result = await this.deps.deliveries.post({ url: row.endpoint, body: request.body!, headers });
    logDelivery(this.deps.logger, 'push', row.endpoint, result, {
      user_id: row.user_id,
      subscription_id: row.id,
    });
    if (result.outcome === 'delivered') await markDelivered(this.deps.db, row.id);
    else if (gone(result.status)) {
      await forgetSubscription(this.deps.db, row.id);
      this.deps.logger.info(
        { subscription_id: row.id, status: result.status },
        'push subscription expired: removed',
      );
    }
    return result;
  }
}
