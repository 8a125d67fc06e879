/**
 * @module A platform webhook as the API takes it: `name` (its key in the path), `url`,
 * `events` (patterns as notification rules take them), `enabled` (default true), optional
 * `project_id` (only that project's events) and `secret` (generated when absent).
 */
import { z } from 'zod';
import { eventPatternSchema, webhookSecretSchema } from '../notifications/notification-schema.js';

export const webhookNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, - and _');

const fields = {
  url: z.string().max(2048),
  events: z.array(eventPatternSchema).min(1).max(50),
  enabled: z.boolean(),
  project_id: z.number().int().positive().nullable(),
  secret: webhookSecretSchema,
};

export const createWebhookSchema = z
  .object({
    name: webhookNameSchema,
    url: fields.url,
    events: fields.events,
    enabled: fields.enabled.default(true),
    project_id: fields.project_id.optional(),
    secret: fields.secret.optional(),
  })
  .strict();

export const updateWebhookSchema = z.object(fields).partial().strict();
