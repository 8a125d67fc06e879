/**
 * @module The agent's wire protocol: one JSON object per line in each direction. A request is
 * `{id?, op, params?}`; the answer repeats `id` and is `{ok: true, result}` or
 * `{ok: false, error: {code, message, details?}}`. Only the operations listed here exist.
 */
import { z } from 'zod';

/** Big enough for 10,000 rules; a longer line is refused and the connection closed. */
export const defaultMaxMessageBytes = 8 * 1024 * 1024;

export const operations = [
  'status',
  'read_rules',
  'validate',
  'apply',
  'snapshot',
  'list_snapshots',
  'restore',
  'begin_safe_apply',
  'confirm',
  'exposure',
] as const;
export type Operation = (typeof operations)[number];

export const requestSchema = z.strictObject({
  id: z.union([z.string().max(100), z.number().int()]).optional(),
  op: z.string().max(64),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type Request = z.infer<typeof requestSchema>;

export type Response =
  | { id?: string | number; ok: true; result: unknown }
  | { id?: string | number; ok: false; error: { code: string; message: string; details?: unknown } };

/** Lines of our chains the model cannot express that the caller accepts to lose, verbatim. */
const acknowledgedLines = z.array(z.string().max(4_096)).max(1_000).default([]);

export const paramsSchemas = {
  status: z.strictObject({}),
  read_rules: z.strictObject({}),
  validate: z.strictObject({ rules: z.array(z.unknown()) }),
  apply: z.strictObject({ rules: z.array(z.unknown()), acknowledge_unmanaged: acknowledgedLines }),
  snapshot: z.strictObject({
    kind: z.enum(['automatic', 'manual']).default('manual'),
    note: z.string().max(200).optional(),
  }),
  list_snapshots: z.strictObject({}),
  restore: z.strictObject({ snapshot_id: z.string().max(64) }),
  begin_safe_apply: z.strictObject({
    rules: z.array(z.unknown()),
    timeout_seconds: z.number().int().min(1).max(3_600),
    acknowledge_unmanaged: acknowledgedLines,
  }),
  confirm: z.strictObject({ transaction_id: z.string().max(64) }),
  exposure: z.strictObject({}),
} satisfies Record<Operation, z.ZodType>;
