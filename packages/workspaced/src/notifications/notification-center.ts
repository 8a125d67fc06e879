/**
 * @module Notification rules and their delivery. Rules are kept in memory (spec: "Rules are kept
 * in memory"; platform webhooks are the durable kind) and belong to the user who made them.
 * Every event on the bus is matched on type and project against the enabled rules; a rule fires
 * only when its owner, with their role of now, may see the event (event-visibility.ts). The
 * browser channel publishes a critical `notification` event on the owner's stream `user:<id>`;
 * the webhook channel POSTs a signed JSON summary through the shared outbound queue (at most 8
 * deliveries at once, outbound/delivery-queue.ts); the push channel sends an encrypted Web Push
 * message to every device the owner subscribed (push/push-sender.ts, through the same queue).
 *
 * Push by default: a user with a subscribed device and no push rule of their own is sent the
 * events that need them when no tab is open, an agent that needs input or approval and a
 * workflow approval that waits (`defaultPushEvents`); their first push rule replaces that
 * default. The default lives here, not as stored rules, so it survives a restart like the
 * subscriptions do.
 */

import type { Logger } from 'pino';
import { isRole } from '../access/roles.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError, notFound } from '../http/api-error.js';
import { logDelivery } from '../outbound/delivery-log.js';
import type { DeliveryQueue } from '../outbound/delivery-queue.js';
import { type DeliveryPolicy, type DeliveryResult, newSigningSecret } from '../outbound/signed-delivery.js';
import { requireAllowedTarget } from '../outbound/target-check.js';
import { pushMessage } from '../push/push-message.js';
import type { PushReport, PushSender } from '../push/push-sender.js';
import { subscribedUserIds } from '../push/push-subscription-store.js';
import type { EventBus, RealtimeEvent } from '../realtime/event-bus.js';
import { maySee } from '../realtime/event-visibility.js';
import { type NotificationSummary, summarize } from './event-summary.js';
import {
  type Channel,
  eventMatches,
  eventNames,
  type RuleInput,
  type RuleUpdate,
} from './notification-schema.js';

interface NotificationRule {
  id: number;
  owner_id: string;
  event: string;
  channel: Channel;
  target: string;
  enabled: boolean;
  project_id: number | null;
  created_at: string;
  updated_at: string;
  last_delivery: { outcome: DeliveryResult['outcome']; status: number | null; at: string } | null;
}

interface StoredRule extends NotificationRule {
  secret: string;
}

interface NotificationDeps {
  db: WorkspacedDb;
  events: EventBus;
  /** The owner's current account (a disabled or deleted owner's rules stay silent). */
  findUser: (
    id: string,
  ) => Promise<
    { id: string; username: string; displayName: string | null; role: string; disabled: boolean } | undefined
  >;
  delivery: DeliveryPolicy;
  deliveries: DeliveryQueue;
  push: PushSender;
  logger: Logger;
}

interface DeliveryReport {
  rule_id: number;
  channel: Channel;
  /** Also sent as `X-Workspaced-Delivery`; null for the browser and push channels. */
  delivery_id: string | null;
  outcome: DeliveryResult['outcome'];
  status: number | null;
  attempts: number;
  error: string | null;
}

/** Rules one user may keep (in memory, so bounded). */
const maxRulesPerUser = 100;

const userStream = (userId: string) => `user:${userId}`;

/** What a subscribed device gets while its owner has no push rule. */
const defaultPushEvents = ['attention.agent.blocked', 'attention.workflow.approval'] as const;

function publicView({ secret: _secret, ...rule }: StoredRule): NotificationRule {
  return { ...rule, last_delivery: rule.last_delivery && { ...rule.last_delivery } };
}

export class NotificationCenter {
  private readonly rules = new Map<number, StoredRule>();
  private nextId = 1;
  private readonly stopListening: () => void;

  constructor(private readonly deps: NotificationDeps) {
    this.stopListening = deps.events.listen((event) => {
      if (event.stream.startsWith('project:')) void this.dispatch(event);
    });
  }

  stop(): void {
    this.stopListening();
  }

  list(ownerId: string): NotificationRule[] {
    return [...this.rules.values()].filter((rule) => rule.owner_id === ownerId).map(publicView);
  }

  get(ownerId: string, id: number): NotificationRule {
    return publicView(this.owned(ownerId, id));
  }

  /**
   * Creates a rule, or updates the caller's rule named by `id` or equal in event, channel, target
   * and project. Answers the rule, with its secret only when this call chose or changed it.
   */
  upsert(ownerId: string, input: RuleInput): { rule: NotificationRule; created: boolean; secret?: string } {
    this.checkTarget(input.channel, input.target);
    const projectId = input.project_id ?? null;
    const existing =
      input.id !== undefined
        ? this.owned(ownerId, input.id)
        : [...this.rules.values()].find(
            (rule) =>
              rule.owner_id === ownerId &&
              rule.event === input.event &&
              rule.channel === input.channel &&
              rule.target === input.target &&
              rule.project_id === projectId,
          );
    if (existing) {
      const { rule, secret } = this.update(ownerId, existing.id, { ...input, project_id: projectId });
      return { rule, created: false, secret };
    }
    if (this.list(ownerId).length >= maxRulesPerUser)
      throw new ApiError('TOO_MANY_RULES', `at most ${maxRulesPerUser} notification rules per user`);
    const now = new Date().toISOString();
    const rule: StoredRule = {
      id: this.nextId++,
      owner_id: ownerId,
      event: input.event,
      channel: input.channel,
      target: input.target,
      enabled: input.enabled,
      project_id: projectId,
      created_at: now,
      updated_at: now,
      last_delivery: null,
      secret: input.secret ?? newSigningSecret(),
    };
    this.rules.set(rule.id, rule);
    return {
      rule: publicView(rule),
      created: true,
      secret: rule.channel === 'webhook' ? rule.secret : undefined,
    };
  }

  update(ownerId: string, id: number, changes: RuleUpdate): { rule: NotificationRule; secret?: string } {
    const rule = this.owned(ownerId, id);
    const channel = changes.channel ?? rule.channel;
    const target = changes.target ?? rule.target;
    this.checkTarget(channel, target);
    Object.assign(rule, {
      event: changes.event ?? rule.event,
      channel,
      target,
      enabled: changes.enabled ?? rule.enabled,
      project_id: changes.project_id === undefined ? rule.project_id : changes.project_id,
      secret: changes.secret ?? rule.secret,
      updated_at: new Date().toISOString(),
    });
    return { rule: publicView(rule), secret: changes.secret === undefined ? undefined : rule.secret };
  }

  remove(ownerId: string, id: number): void {
    this.rules.delete(this.owned(ownerId, id).id);
  }

  /** `POST /notifications/test`: a `notification.test` through one rule or every enabled one. */
  async test(owner: Principal, ruleId: number | undefined): Promise<DeliveryReport[]> {
    const rules =
      ruleId === undefined
        ? [...this.rules.values()].filter((rule) => rule.owner_id === owner.id && rule.enabled)
        : [this.owned(owner.id, ruleId)];
    const summary: NotificationSummary = {
      event: 'notification.test',
      priority: 3,
      summary: `test notification requested by ${owner.username}`,
      resource: null,
      project_id: null,
    };
    return Promise.all(rules.map((rule) => this.send(rule, summary, new Date().toISOString())));
  }

  private owned(ownerId: string, id: number): StoredRule {
    const rule = this.rules.get(id);
    if (!rule || rule.owner_id !== ownerId) throw notFound('notification rule');
    return rule;
  }

  private checkTarget(channel: Channel, target: string): void {
    if (channel === 'webhook') requireAllowedTarget(target, this.deps.delivery.allowPrivateTargets);
    if (channel === 'push' && target !== '')
      throw new ApiError('VALIDATION_FAILED', 'invalid body', {
        issues: [
          {
            path: 'target',
            message: "a push rule reaches its owner's subscribed devices: leave target empty",
          },
        ],
      });
  }

  /** Whether the user, as they are now (enabled, current role), may be told about `event`. */
  private async ownerMaySee(ownerId: string, event: RealtimeEvent): Promise<boolean> {
    const user = await this.deps.findUser(ownerId);
    if (!user || user.disabled || !isRole(user.role)) return false;
    const owner: Principal = {
      id: user.id,
      username: user.username,
      display_name: user.displayName,
      role: user.role,
    };
    return maySee(this.deps.db, owner, event);
  }

  private async dispatch(event: RealtimeEvent): Promise<void> {
    const summary = summarize(event);
    const names = eventNames(event.type, event.data);
    const matches = (pattern: string) => names.some((name) => eventMatches(pattern, name));
    const candidates = [...this.rules.values()].filter(
      (rule) =>
        rule.enabled &&
        matches(rule.event) &&
        (rule.project_id === null || rule.project_id === summary.project_id),
    );
    for (const rule of candidates) {
      try {
        if (!(await this.ownerMaySee(rule.owner_id, event))) continue;
        this.send(rule, summary, event.ts, event.seq, attentionOf(event)).catch((error: unknown) =>
          this.deps.logger.error({ err: error, rule_id: rule.id }, 'notification delivery failed'),
        );
      } catch (error) {
        this.deps.logger.error({ err: error, rule_id: rule.id }, 'notification rule failed');
      }
    }
    if (defaultPushEvents.some(matches)) await this.pushByDefault(event, summary);
  }

  /** The default push of the users who subscribed a device and made no push rule. */
  private async pushByDefault(event: RealtimeEvent, summary: NotificationSummary): Promise<void> {
    const withRules = new Set(
      [...this.rules.values()].filter((rule) => rule.channel === 'push').map((rule) => rule.owner_id),
    );
    try {
      for (const userId of await subscribedUserIds(this.deps.db)) {
        if (withRules.has(userId) || !(await this.ownerMaySee(userId, event))) continue;
        this.deps.push
          .sendToUser(userId, pushMessage(summary, attentionOf(event)))
          .catch((error: unknown) => this.deps.logger.error({ err: error, user_id: userId }, 'push failed'));
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'default push failed');
    }
  }

  private async send(
    rule: StoredRule,
    summary: NotificationSummary,
    ts: string,
    seq?: number,
    attention: { kind?: string; id?: number } = {},
  ): Promise<DeliveryReport> {
    const payload = { rule_id: rule.id, ...summary, ts, seq: seq ?? null };
    let result: DeliveryResult | (Omit<DeliveryResult, 'id'> & { id: null });
    if (rule.channel === 'browser') {
      this.deps.events.publish(userStream(rule.owner_id), 'notification', payload, true);
      result = { outcome: 'delivered', id: null, status: null, attempts: 1, error: null };
    } else if (rule.channel === 'push') {
      const message = pushMessage(summary, { ...attention, seq });
      result = { ...pushOutcome(await this.deps.push.sendToUser(rule.owner_id, message)), id: null };
    } else {
      result = await this.deps.deliveries.deliver({
        url: rule.target,
        secret: rule.secret,
        event: summary.event,
        payload,
      });
      logDelivery(this.deps.logger, 'notification', rule.target, result, { rule_id: rule.id });
    }
    rule.last_delivery = { outcome: result.outcome, status: result.status, at: new Date().toISOString() };
    const { id, ...outcome } = result;
    return { rule_id: rule.id, channel: rule.channel, delivery_id: id, ...outcome };
  }
}

/** The attention item an `attention.created` event carries: its kind and id (push-message.ts). */
function attentionOf(event: RealtimeEvent): { kind?: string; id?: number; seq: number } {
  const { kind, id } = event.data;
  return event.type === 'attention.created' && typeof kind === 'string' && typeof id === 'number'
    ? { kind, id, seq: event.seq }
    : { seq: event.seq };
}

/**
 * One rule's outcome over its owner's devices: delivered when every device took the push (and
 * there was one), else failed with the first failure's status and error.
 */
function pushOutcome(report: PushReport): Omit<DeliveryResult, 'id'> {
  if (report.devices === 0)
    return { outcome: 'failed', status: null, attempts: 0, error: 'no device is subscribed to push' };
  const failure = report.results.find((result) => result.outcome !== 'delivered');
  const attempts = report.results.reduce((sum, result) => sum + result.attempts, 0);
  if (!failure) return { outcome: 'delivered', status: report.results[0]!.status, attempts, error: null };
  const failed = report.results.filter((result) => result.outcome !== 'delivered').length;
  return {
    outcome: failure.outcome,
    status: failure.status,
    attempts,
    error: `${failed} of ${report.devices} devices: ${failure.error}`,
  };
}
