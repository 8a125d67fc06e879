/**
 * @module Delivers bus events to the enabled platform webhooks whose patterns and project match:
 * a signed POST of `{event, stream, project_id, seq, ts, critical, data}` through the shared
 * outbound queue (same signature, SSRF guard, retries as notification webhooks; at most 8
 * deliveries at once, outbound/delivery-queue.ts). Webhooks are managed with `settings.manage`
 * (owners and admins, who see every project), so a matching project event needs no further
 * visibility check. Nothing here can end the process: every failure is logged.
 */
import type { Logger } from 'pino';
import type { WorkspacedDb } from '../db/open-database.js';
import { eventMatches } from '../notifications/notification-schema.js';
import { logDelivery } from '../outbound/delivery-log.js';
import type { DeliveryQueue } from '../outbound/delivery-queue.js';
import type { EventBus, RealtimeEvent } from '../realtime/event-bus.js';
import { eventProjectId } from '../realtime/event-visibility.js';
import { listWebhooks, recordDelivery } from './webhook-store.js';

interface WebhookDispatcherDeps {
  db: WorkspacedDb;
  events: EventBus;
  deliveries: DeliveryQueue;
  logger: Logger;
}

/** Starts listening; returns the function that stops. */
export function startWebhookDispatcher(deps: WebhookDispatcherDeps): () => void {
  const dispatch = async (event: RealtimeEvent) => {
    const projectId = eventProjectId(event);
    if (projectId === undefined) return;
    const hooks = (await listWebhooks(deps.db)).filter(
      (hook) =>
        hook.enabled === 1 &&
        (hook.project_id === null || hook.project_id === projectId) &&
        (JSON.parse(hook.events) as string[]).some((pattern) => eventMatches(pattern, event.type)),
    );
    const payload = {
      event: event.type,
      stream: event.stream,
      project_id: projectId,
      seq: event.seq,
      ts: event.ts,
      critical: event.critical,
      data: event.data,
    };
    const results = deps.deliveries.deliverToEach(hooks, event.type, payload);
    hooks.forEach((hook, index) => {
      results[index]!.then(async (result) => {
        logDelivery(deps.logger, 'webhook', hook.url, result, { webhook: hook.name });
        await recordDelivery(deps.db, hook.name, result);
      }).catch((error: unknown) =>
        deps.logger.error({ err: error, webhook: hook.name }, 'recording a webhook delivery failed'),
      );
    });
  };
  return deps.events.listen((event) => {
    dispatch(event).catch((error: unknown) => deps.logger.error({ err: error }, 'webhook dispatch failed'));
  });
}
