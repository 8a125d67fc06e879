/**
 * @module The effective run-time settings: the config file's values, overridden by what an admin
 * stored in the `settings` table, except keys a `FIREWARDEN_*` variable fixes (locked). Kept in
 * memory; every change is written to the database first and then announced to listeners.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config/schema.js';
import type { Database } from '../store/database.js';
import {
  type EditableKey,
  type EditableSettings,
  editableFromConfig,
  editableKeys,
  editableSettingSchemas,
  nest,
} from './editable-settings.js';

interface SettingChange {
  key: EditableKey;
  from: unknown;
  to: unknown;
}

export interface SettingsService {
  current(): EditableSettings;
  /** Keys fixed by the environment: `PUT` refuses to change them. */
  locked(): EditableKey[];
  /** Writes the values (already validated) and returns what actually changed. */
  update(pairs: [EditableKey, unknown][], actor: string): Promise<SettingChange[]>;
  onChange(listener: (settings: EditableSettings) => void): void;
}

export async function createSettingsService(options: {
  db: Kysely<Database>;
  config: Config;
  lockedKeys: ReadonlySet<string>;
  now: () => number;
}): Promise<SettingsService> {
  const { db, config, lockedKeys, now } = options;
  const values = editableFromConfig(config);
  const locked = editableKeys.filter((key) => lockedKeys.has(key));
  for (const row of await db.selectFrom('settings').select(['key', 'value']).execute()) {
    const key = row.key as EditableKey;
    if (!(key in editableSettingSchemas) || lockedKeys.has(key)) continue;
    // A stored value that no longer passes the schema (older version, hand edit) is ignored.
    const parsed = editableSettingSchemas[key].safeParse(JSON.parse(row.value));
    if (parsed.success) values[key] = parsed.data;
  }
  let snapshot = nest(values);
  const listeners: ((settings: EditableSettings) => void)[] = [];

  return {
    current: () => snapshot,
    locked: () => locked,
    async update(pairs, actor) {
      const changes = pairs
        .filter(([key, value]) => values[key] !== value)
        .map(([key, value]) => ({ key, from: values[key], to: value }));
      if (changes.length === 0) return [];
      const at = now();
      await db.transaction().execute(async (trx) => {
        for (const { key, to } of changes) {
          const row = { key, value: JSON.stringify(to), updated_at: at, updated_by: actor };
          await trx
            .insertInto('settings')
            .values(row)
            .onConflict((conflict) =>
              conflict.column('key').doUpdateSet({ value: row.value, updated_at: at, updated_by: actor }),
            )
            .execute();
        }
      });
      for (const { key, to } of changes) values[key] = to;
      snapshot = nest(values);
      for (const listener of listeners) listener(snapshot);
      return changes;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
