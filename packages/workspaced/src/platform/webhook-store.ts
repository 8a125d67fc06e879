/**
 * @module Platform webhook records in SQLite (durable; the secret is stored because every
 * delivery is signed with it, and is never shown after creation).
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { WebhookRow } from '../db/schema.js';
import type { DeliveryResult } from '../outbound/signed-delivery.js';

export function webhookView(row: WebhookRow) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    project_id: row.project_id,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    last_delivery: row.last_delivery === null ? null : JSON.parse(row.last_delivery),
  };
}

export const listWebhooks = (db: WorkspacedDb) =>
  db.selectFrom('webhooks').selectAll().orderBy('name').execute();

export const findWebhook = (db: WorkspacedDb, name: string) =>
  db.selectFrom('webhooks').selectAll().where('name', '=', name).executeTakeFirst();

export async function insertWebhook(db: WorkspacedDb, row: WebhookRow): Promise<boolean> {
  const inserted = await db
    .insertInto('webhooks')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function updateWebhook(
  db: WorkspacedDb,
  name: string,
  changes: Partial<WebhookRow>,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('name', '=', name).execute();
}

export async function deleteWebhook(db: WorkspacedDb, name: string): Promise<boolean> {
  const deleted = await db.deleteFrom('webhooks').where('name', '=', name).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

export async function recordDelivery(db: WorkspacedDb, name: string, result: DeliveryResult): Promise<void> {
  const last = { outcome: result.outcome, status: result.status, at: new Date().toISOString() };
  await db
    .updateTable('webhooks')
    .set({ last_delivery: JSON.stringify(last) })
    .where('name', '=', name)
    .execute();
}
