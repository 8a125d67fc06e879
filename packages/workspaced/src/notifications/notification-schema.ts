/**
 * @module The notification rule as the API takes it: the spec's {event, channel, target,
 * enabled, project_id}, plus optional `id` (update that rule) and `secret` (the webhook's HMAC
 * key; one is generated when absent). Event names: a type such as `attention.created`, a
 * namespace such as `attention.*`, or `*` for every event; an attention item's kind is a name
 * too (`attention.agent.blocked` matches the `attention.created` events of that kind).
 */
import { z } from 'zod';

export const eventPatternSchema = z
  .string()
  .max(100)
  .regex(/^(\*|[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*(\.\*)?)$/, 'an event type, `namespace.*` or `*`');

export const webhookSecretSchema = z.string().min(16).max(256);

const channels = ['browser', 'webhook', 'push'] as const;
export type Channel = (typeof channels)[number];

export const ruleInputSchema = z
  .object({
    id: z.number().int().positive().optional(),
    event: eventPatternSchema,
    channel: z.enum(channels),
    /**
     * The webhook URL; a browser rule delivers to its owner's stream and may leave it empty; a
     * push rule reaches every device its owner subscribed and has none.
     */
    target: z.string().max(2048).default(''),
    enabled: z.boolean().default(true),
    project_id: z.number().int().positive().nullable().optional(),
    secret: webhookSecretSchema.optional(),
  })
  .strict();
export type RuleInput = z.infer<typeof ruleInputSchema>;

/** `PUT /notifications/rules/{id}`: only the fields given change. */
export const ruleUpdateSchema = z
  .object({
    event: eventPatternSchema,
    channel: z.enum(channels),
    target: z.string().max(2048),
    enabled: z.boolean(),
    project_id: z.number().int().positive().nullable(),
    secret: webhookSecretSchema,
  })
  .partial()
  .strict();
export type RuleUpdate = z.infer<typeof ruleUpdateSchema>;

export const testInputSchema = z.object({ rule_id: z.number().int().positive().optional() }).strict();

/**
 * The names a rule's pattern is matched against: the event's type, and for a new attention item
 * `attention.<kind>` as well (`attention.agent.blocked`: an agent needs input or approval;
 * `attention.workflow.approval`: a workflow step waits for approval).
 */
export function eventNames(type: string, data: Record<string, unknown>): string[] {
  return type === 'attention.created' && typeof data.kind === 'string'
    ? [type, `attention.${data.kind}`]
    : [type];
}

/** True when the rule's event pattern covers `type`. */
export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}
