/**
 * @module The `push_subscriptions` table: each row a browser's subscription, owned by the user
 * who made it. An endpoint is unique: the same browser subscribing again (as the same user or as
 * another one signed in on it) replaces its keys and owner, so a shared browser only ever shows
 * the pushes of the last user who turned them on.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { PushSubscriptionRow } from '../db/schema.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { SubscriptionInput } from './push-schema.js';

/** Devices one user may subscribe. */
const maxSubscriptionsPerUser = 10;

interface PushSubscriptionView {
  id: number;
  /** The push service's origin only: the path is the browser's capability. */
  push_service: string;
  user_agent: string | null;
  created_at: string;
  last_success_at: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function subscriptionView(row: PushSubscriptionRow): PushSubscriptionView {
  return {
    id: row.id,
    push_service: new URL(row.endpoint).origin,
    user_agent: row.user_agent,
    created_at: iso(row.created_at)!,
    last_success_at: iso(row.last_success_at),
  };
}

export function listSubscriptions(db: WorkspacedDb, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Creates the subscription or updates the one with that endpoint; `created` tells which. */
export async function saveSubscription(
  db: WorkspacedDb,
  userId: string,
  input: SubscriptionInput,
  userAgent: string | null,
): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', input.endpoint)
      .executeTakeFirst();
    const values = {
      user_id: userId,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      user_agent: userAgent,
    };
    if (existing?.user_id !== userId) {
      const { count } = await trx
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxSubscriptionsPerUser)
        throw new ApiError(
          'TOO_MANY_PUSH_SUBSCRIPTIONS',
          `at most ${maxSubscriptionsPerUser} devices per user: remove one first`,
        );
    }
    if (existing) {
      const row = await trx
        .updateTable('push_subscriptions')
        .set(values)
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, created: false };
    }
    const row = await trx
      .insertInto('push_subscriptions')
      .values({ ...values, endpoint: input.endpoint, created_at: Date.now(), last_success_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, created: true };
  });
}

export async function removeSubscription(db: WorkspacedDb, userId: string, id: number): Promise<void> {
  const { numDeletedRows } = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (numDeletedRows === 0n) throw notFound('push subscription');
}

/** The push service said the subscription is gone (404/410, RFC 8030 section 7.3). */
export async function forgetSubscription(db: WorkspacedDb, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

export async function markDelivered(db: WorkspacedDb, id: number): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ last_success_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** Users with at least one subscribed device, in the order they first subscribed one. */
export async function subscribedUserIds(db: WorkspacedDb): Promise<string[]> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select((eb) => ['user_id', eb.fn.min('id').as('first')])
    .groupBy('user_id')
    .orderBy('first')
    .execute();
  return rows.map((row) => row.user_id);
}
