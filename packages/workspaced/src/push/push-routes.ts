/**
 * @module `GET/POST /push/subscriptions` and `DELETE /push/subscriptions/{id}`: a user's devices
 * for Web Push (`notifications.manage`, like notification rules). The list carries the daemon's
 * VAPID public key, the `applicationServerKey` a browser subscribes with. A subscription says
 * where pushes go, never what they may contain: what its owner may see is checked when an event
 * is sent (notifications/notification-center.ts), not here.
 */
import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { AppEnv } from '../http/app-env.js';
import { readId, readJson } from '../http/request-input.js';
import type { DeliveryPolicy } from '../outbound/signed-delivery.js';
import { requireAllowedEndpoint } from './push-endpoint.js';
import { subscriptionInputSchema } from './push-schema.js';
import type { PushSender } from './push-sender.js';
import {
  listSubscriptions,
  removeSubscription,
  saveSubscription,
  subscriptionView,
} from './push-subscription-store.js';

export function registerPushRoutes(
  app: Hono<AppEnv>,
  { db, push, delivery }: { db: WorkspacedDb; push: PushSender; delivery: DeliveryPolicy },
): void {
  app.use('/push/*', requirePermission('notifications.manage'));

  app.get('/push/subscriptions', async (c) =>
    c.json({
      vapid_public_key: push.publicKey,
      subscriptions: (await listSubscriptions(db, c.var.principal.id)).map(subscriptionView),
    }),
  );

  app.post('/push/subscriptions', async (c) => {
    const input = await readJson(c, subscriptionInputSchema);
    requireAllowedEndpoint(input.endpoint, delivery.allowPrivateTargets);
    const userAgent = c.req.header('user-agent')?.slice(0, 200) ?? null;
    const { row, created } = await saveSubscription(db, c.var.principal.id, input, userAgent);
    return c.json(subscriptionView(row), created ? 201 : 200);
  });

  app.delete('/push/subscriptions/:id', async (c) => {
    await removeSubscription(db, c.var.principal.id, readId(c));
    return c.body(null, 204);
  });
}
