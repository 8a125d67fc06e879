/**
 * @module The agent's wire protocol: one JSON object per line in each direction. A request is
 * `{id?, op, params?}`; the answer repeats `id` and is `{ok: true, result}` or
 * `{ok: false, error: {code, message, details?}}`. Only the operations listed here exist.
 */
import { z } from 'zod';
import { type Config, configSchema } from '../config/schema.js';
import { blocklistBounds, blocklistFamilies } from '../engine/blocklist.js';
import { unexaminedArray } from '../engine/unexamined-array.js';

/**
 * Big enough for a blocklist of 1,000,000 IPv6 entries (10,000 rules need 8 MiB); a longer line
 * is refused and the connection closed. Only the server (root or the socket's group) can connect.
 */
export const defaultMaxMessageBytes = 64 * 1024 * 1024;

export const operations = [
  'status',
  'read_rules',
  'validate',
  'apply',
  'snapshot',
  'list_snapshots',
  'read_snapshot',
  'restore',
  'begin_safe_apply',
  'confirm',
  'exposure',
  'blocklists',
] as const;
export type Operation = (typeof operations)[number];

export const requestSchema = z.strictObject({
  id: z.union([z.string().max(100), z.number().int()]).optional(),
  op: z.string().max(64),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type Request = z.infer<typeof requestSchema>;
export type BlocklistChangeInput = NonNullable<z.output<typeof blocklistChange>>;

export type Response =
  | { id?: string | number; ok: true; result: unknown }
  | { id?: string | number; ok: false; error: { code: string; message: string; details?: unknown } };

/** Lines of our chains the model cannot express that the caller accepts to lose, verbatim. */
const acknowledgedLines = z.array(z.string().max(4_096)).max(1_000).default([]);

const restorePointSettings = configSchema.shape.restore_points.unwrap();

/**
 * How many restore points of each kind to keep (`restore_points.retain_*`, the config file's
 * bounds), sent by the server with every operation that creates a point; absent, the agent uses
 * its own config file's values.
 */
const retentionSchema = z.strictObject({
  automatic: restorePointSettings.shape.retain_automatic.unwrap(),
  manual: restorePointSettings.shape.retain_manual.unwrap(),
});
export type Retention = z.output<typeof retentionSchema>;

export function retentionOf(
  restorePoints: Pick<Config['restore_points'], 'retain_automatic' | 'retain_manual'>,
): Retention {
  return { automatic: restorePoints.retain_automatic, manual: restorePoints.retain_manual };
}

/** The spec's defaults (50 automatic, 20 manual): the agent's without a config file. */
export const defaultRetention = retentionOf(restorePointSettings.parse({}));

/** Lists set whole and lists deleted, by name. */
const blocklistChange = z
  .strictObject({
    set: z
      .array(
        z.strictObject({
          name: z.string().max(64),
          family: z.enum(blocklistFamilies).default('both'),
          comment: z.string().max(blocklistBounds.commentLength).nullable().default(null),
          entries: unexaminedArray(blocklistBounds.entriesPerList),
        }),
      )
      .max(blocklistBounds.lists)
      .default([]),
    delete: z.array(z.string().max(64)).max(blocklistBounds.lists).default([]),
  })
  .optional();

export const paramsSchemas = {
  status: z.strictObject({}),
  /** `address`: also name the lists holding it (the lockout check's client). */
  read_rules: z.strictObject({ address: z.string().max(64).optional() }),
  validate: z.strictObject({ rules: z.array(z.unknown()) }),
  /** Without `rules` the rules stay as they are (a blocklist change). */
  apply: z.strictObject({
    rules: z.array(z.unknown()).optional(),
    blocklists: blocklistChange,
    acknowledge_unmanaged: acknowledgedLines,
    retention: retentionSchema.optional(),
  }),
  snapshot: z.strictObject({
    kind: z.enum(['automatic', 'manual']).default('manual'),
    note: z.string().max(200).optional(),
    retention: retentionSchema.optional(),
  }),
  list_snapshots: z.strictObject({}),
  read_snapshot: z.strictObject({ snapshot_id: z.string().max(64) }),
  restore: z.strictObject({ snapshot_id: z.string().max(64), retention: retentionSchema.optional() }),
  begin_safe_apply: z.strictObject({
    rules: z.array(z.unknown()).optional(),
    blocklists: blocklistChange,
    timeout_seconds: z.number().int().min(1).max(3_600),
    acknowledge_unmanaged: acknowledgedLines,
    retention: retentionSchema.optional(),
  }),
  confirm: z.strictObject({ transaction_id: z.string().max(64) }),
  exposure: z.strictObject({}),
  /** One list with its entries, or (no name) every list with its number of entries. */
  blocklists: z.strictObject({ name: z.string().max(64).optional() }),
} satisfies Record<Operation, z.ZodType>;
