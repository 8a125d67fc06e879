/**
 * @module Registered plugin manifests in SQLite; `enabled` starts false and only records the
 * owner's decision.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { PluginRow } from '../db/schema.js';
import type { PluginManifest } from './plugin-manifest.js';

export function pluginView(row: PluginRow) {
  return {
    id: row.id,
    enabled: row.enabled === 1,
    manifest: JSON.parse(row.manifest) as PluginManifest,
    created_by: row.created_by,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export const listPlugins = (db: WorkspacedDb) => db.selectFrom('plugins').selectAll().orderBy('id').execute();

export const findPlugin = (db: WorkspacedDb, id: string) =>
  db.selectFrom('plugins').selectAll().where('id', '=', id).executeTakeFirst();

/** False when a plugin with this id exists. */
export async function insertPlugin(
  db: WorkspacedDb,
  manifest: PluginManifest,
  userId: string,
): Promise<boolean> {
  const now = Date.now();
  const inserted = await db
    .insertInto('plugins')
    .values({
      id: manifest.id,
      manifest: JSON.stringify(manifest),
      enabled: 0,
      created_by: userId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function updatePlugin(
  db: WorkspacedDb,
  id: string,
  changes: { enabled?: boolean; manifest?: PluginManifest },
): Promise<void> {
  await db
    .updateTable('plugins')
    .set({
      ...(changes.enabled === undefined ? {} : { enabled: changes.enabled ? 1 : 0 }),
      ...(changes.manifest === undefined ? {} : { manifest: JSON.stringify(changes.manifest) }),
      updated_at: Date.now(),
    })
    .where('id', '=', id)
    .execute();
}
