/**
 * @module The settings an admin may change at run time through `PUT /api/v1/settings`: a subset
 * of the config file that takes effect without a restart. Bind, TLS, database, paths, backend
 * and the manager-conflict acknowledgment stay in the file (they need root or a restart).
 */
import { z } from 'zod';
import type { Config } from '../config/schema.js';
import { configSchema } from '../config/schema.js';

const shape = configSchema.shape;

/** Every editable key with the schema of its value (the config file's own rules). */
export const editableSettingSchemas = {
  'security.session_idle_timeout_minutes': shape.security
    .unwrap()
    .shape.session_idle_timeout_minutes.unwrap(),
  'security.session_absolute_timeout_hours': shape.security
    .unwrap()
    .shape.session_absolute_timeout_hours.unwrap(),
  'security.login_rate_limit_per_minute': shape.security.unwrap().shape.login_rate_limit_per_minute.unwrap(),
  'firewall.safe_apply_timeout_seconds': shape.firewall.unwrap().shape.safe_apply_timeout_seconds.unwrap(),
  'restore_points.auto_enabled': shape.restore_points.unwrap().shape.auto_enabled.unwrap(),
  'restore_points.retain_automatic': shape.restore_points.unwrap().shape.retain_automatic.unwrap(),
  'restore_points.retain_manual': shape.restore_points.unwrap().shape.retain_manual.unwrap(),
  'logging.level': shape.logging.unwrap().shape.level.unwrap(),
} as const;

export type EditableKey = keyof typeof editableSettingSchemas;
export const editableKeys = Object.keys(editableSettingSchemas) as EditableKey[];

export interface EditableSettings {
  security: Pick<
    Config['security'],
    'session_idle_timeout_minutes' | 'session_absolute_timeout_hours' | 'login_rate_limit_per_minute'
  >;
  firewall: Pick<Config['firewall'], 'safe_apply_timeout_seconds'>;
  restore_points: Config['restore_points'];
  logging: Pick<Config['logging'], 'level'>;
}

/** Groups flat keys into the nested shape of the API (`security.x` -> `{security: {x}}`). */
export function nest(values: Record<EditableKey, unknown>): EditableSettings {
  const nested: Record<string, Record<string, unknown>> = {};
  for (const key of editableKeys) {
    const [section, name] = key.split('.') as [string, string];
    nested[section] ??= {};
    nested[section][name] = values[key];
  }
  return nested as unknown as EditableSettings;
}

/** Reads the editable values out of a full config. */
export function editableFromConfig(config: Config): Record<EditableKey, unknown> {
  const values = {} as Record<EditableKey, unknown>;
  for (const key of editableKeys) {
    const [section, name] = key.split('.') as [keyof Config, string];
    values[key] = (config[section] as Record<string, unknown>)[name];
  }
  return values;
}

/** Body of `PUT /api/v1/settings`: any subset of the editable keys, nested, nothing else. */
export const settingsPatchSchema = z
  .object({
    security: z
      .object({
        session_idle_timeout_minutes: editableSettingSchemas['security.session_idle_timeout_minutes'],
        session_absolute_timeout_hours: editableSettingSchemas['security.session_absolute_timeout_hours'],
        login_rate_limit_per_minute: editableSettingSchemas['security.login_rate_limit_per_minute'],
      })
      .partial()
      .strict(),
    firewall: z
      .object({ safe_apply_timeout_seconds: editableSettingSchemas['firewall.safe_apply_timeout_seconds'] })
      .partial()
      .strict(),
    restore_points: z
      .object({
        auto_enabled: editableSettingSchemas['restore_points.auto_enabled'],
        retain_automatic: editableSettingSchemas['restore_points.retain_automatic'],
        retain_manual: editableSettingSchemas['restore_points.retain_manual'],
      })
      .partial()
      .strict(),
    logging: z.object({ level: editableSettingSchemas['logging.level'] }).partial().strict(),
  })
  .partial()
  .strict();

type SettingsPatch = z.output<typeof settingsPatchSchema>;

/** The patch as flat key/value pairs. */
export function flattenPatch(patch: SettingsPatch): [EditableKey, unknown][] {
  const pairs: [EditableKey, unknown][] = [];
  for (const [section, values] of Object.entries(patch)) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (value !== undefined) pairs.push([`${section}.${name}` as EditableKey, value]);
    }
  }
  return pairs;
}
