/**
 * @module One log line per outbound delivery: outcome, status, attempts and the target's origin
 * only (a path or query may hold a token of the receiving service); never the signing secret.
 */
import type { Logger } from 'pino';
import { type DeliveryResult, targetOrigin } from './signed-delivery.js';

export function logDelivery(
  logger: Logger,
  kind: 'notification' | 'webhook' | 'push',
  target: string,
  result: DeliveryResult,
  fields: Record<string, unknown>,
): void {
  const line = { ...fields, target: targetOrigin(target), ...result };
  if (result.outcome === 'delivered') logger.info(line, `${kind} delivered`);
  else logger.warn(line, `${kind} delivery failed`);
}
