/**
 * @module The plugin manifest: what a plugin says it is and what it would ask for. Validated
 * strictly (an unknown field is an error, not silently kept); the daemon stores it and never
 * loads, imports or runs anything a manifest names.
 */
import { z } from 'zod';
import { permissions } from '../access/permissions.js';
import { eventPatternSchema } from '../notifications/notification-schema.js';

export const pluginIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{1,63}$/, 'lower-case letters, digits, ".", "-" and "_", 2 to 64 characters');

export const pluginManifestSchema = z
  .object({
    id: pluginIdSchema,
    name: z.string().trim().min(1).max(100),
    version: z
      .string()
      .max(64)
      .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/, 'a semantic version such as 1.2.0'),
    description: z.string().max(2_000).optional(),
    author: z.string().max(200).optional(),
    homepage: z
      .url({ protocol: /^https?$/ })
      .max(2_048)
      .optional(),
    /** The daemon permissions the plugin would need; shown to the owner, granted to nothing. */
    permissions: z.array(z.enum(permissions)).max(permissions.length).default([]),
    /** Event patterns it would receive. */
    events: z.array(eventPatternSchema).max(50).default([]),
  })
  .strict();
export type PluginManifest = z.infer<typeof pluginManifestSchema>;

export const updatePluginSchema = z
  .object({ enabled: z.boolean().optional(), manifest: pluginManifestSchema.optional() })
  .strict();
