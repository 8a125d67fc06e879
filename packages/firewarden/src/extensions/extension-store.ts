/**
 * @module Installed extensions and their grants in the database (`extensions`,
 * `extension_grants`). The stored manifest is the validated one; it is parsed again on read so a
 * row edited by hand cannot smuggle in what validation would refuse.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { toMillis } from '../store/tables.js';
import { isGrantable } from './capabilities.js';
import { ExtensionError } from './extension-error.js';
import { grantsAfterUpdate } from './grant-scopes.js';
import { type Manifest, parseManifest } from './manifest.js';

export interface Grant {
  capability: string;
  granted_at: string;
  granted_by: string;
}

export interface InstalledExtension {
  id: string;
  manifest: Manifest;
  manifest_sha256: string;
  installed_at: string;
  installed_by: string;
  grants: Grant[];
}

interface InstallResult {
  extension: InstalledExtension;
  /** The version replaced, or null for a first install. */
  previousVersion: string | null;
  /** Grants removed because the new manifest no longer declares them or changed what they read. */
  droppedGrants: string[];
}

export interface ExtensionStore {
  install(manifest: Manifest, text: string, actor: string): Promise<InstallResult>;
  list(): Promise<InstalledExtension[]>;
  /** `EXTENSION_NOT_FOUND` when absent. */
  get(id: string): Promise<InstalledExtension>;
  remove(id: string): Promise<void>;
  /** True when newly granted, false when it already was. */
  grant(id: string, capability: string, actor: string): Promise<boolean>;
  /** True when a grant was removed. */
  revoke(id: string, capability: string): Promise<boolean>;
}

export function createExtensionStore(db: Kysely<Database>, now: () => number = Date.now): ExtensionStore {
  const grantsOf = async (ids: string[]) => {
    const rows =
      ids.length === 0
        ? []
        : await db
            .selectFrom('extension_grants')
            .selectAll()
            .where('extension_id', 'in', ids)
            .orderBy('capability')
            .execute();
    return (id: string): Grant[] =>
      rows
        .filter((row) => row.extension_id === id)
        .map((row) => ({
          capability: row.capability,
          granted_at: new Date(toMillis(row.granted_at)).toISOString(),
          granted_by: row.granted_by,
        }));
  };

  const store: ExtensionStore = {
    async install(manifest, text, actor) {
      const sha256 = createHash('sha256').update(text).digest('hex');
      const result = await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('extensions')
          .select(['version', 'manifest'])
          .where('id', '=', manifest.id)
          .executeTakeFirst();
        const row = {
          name: manifest.name,
          version: manifest.version,
          author: manifest.author,
          manifest: JSON.stringify(manifest),
          manifest_sha256: sha256,
          installed_at: now(),
          installed_by: actor,
        };
        if (existing) await trx.updateTable('extensions').set(row).where('id', '=', manifest.id).execute();
        else
          await trx
            .insertInto('extensions')
            .values({ id: manifest.id, ...row, enabled: 1 })
            .execute();
        const kept = await trx
          .selectFrom('extension_grants')
          .select('capability')
          .where('extension_id', '=', manifest.id)
          .execute();
        const previous = existing ? parseManifest(existing.manifest, `extension ${manifest.id}`) : null;
        const { dropped } = grantsAfterUpdate(
          previous,
          manifest,
          kept.map((grant) => grant.capability),
        );
        if (dropped.length > 0) {
          await trx
            .deleteFrom('extension_grants')
            .where('extension_id', '=', manifest.id)
            .where('capability', 'in', dropped)
            .execute();
        }
        return { previousVersion: existing?.version ?? null, droppedGrants: dropped };
      });
      return { ...result, extension: await store.get(manifest.id) };
    },

    async list() {
      const rows = await db.selectFrom('extensions').selectAll().orderBy('id').execute();
      const grants = await grantsOf(rows.map((row) => row.id));
      return rows.map((row) => toExtension(row, grants(row.id)));
    },

    async get(id) {
      const row = await db.selectFrom('extensions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw new ExtensionError('EXTENSION_NOT_FOUND', `no extension ${id} is installed`);
      return toExtension(row, (await grantsOf([id]))(id));
    },

    async remove(id) {
      await store.get(id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('extension_grants').where('extension_id', '=', id).execute();
        await trx.deleteFrom('extensions').where('id', '=', id).execute();
      });
    },

    async grant(id, capability, actor) {
      const extension = await store.get(id);
      if (!isGrantable(capability)) {
        throw new ExtensionError('EXTENSION_CAPABILITY_DENIED', `${capability} can never be granted`);
      }
      if (!extension.manifest.capabilities.includes(capability)) {
        throw new ExtensionError('EXTENSION_CAPABILITY_UNDECLARED', `${id} does not declare ${capability}`);
      }
      if (extension.grants.some((grant) => grant.capability === capability)) return false;
      await db
        .insertInto('extension_grants')
        .values({ extension_id: id, capability, granted_at: now(), granted_by: actor })
        .execute();
      return true;
    },

    async revoke(id, capability) {
      await store.get(id);
      const result = await db
        .deleteFrom('extension_grants')
        .where('extension_id', '=', id)
        .where('capability', '=', capability)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
  return store;
}

function toExtension(
  row: {
    id: string;
    manifest: string;
    manifest_sha256: string;
    installed_at: Database['extensions']['installed_at'];
    installed_by: string;
  },
  grants: Grant[],
): InstalledExtension {
  return {
    id: row.id,
    manifest: parseManifest(row.manifest, `extension ${row.id}`),
    manifest_sha256: row.manifest_sha256,
    installed_at: new Date(toMillis(row.installed_at)).toISOString(),
    installed_by: row.installed_by,
    grants,
  };
}
