/**
 * @module The API's answer to a refused outbound target: 422 `TARGET_REFUSED`, the same for
 * notification rules and platform webhooks.
 */
import { ApiError } from '../http/api-error.js';
import { checkTargetUrl, RefusedTarget } from './signed-delivery.js';

export function requireAllowedTarget(target: string, allowPrivateTargets: boolean): void {
  try {
    checkTargetUrl(target, allowPrivateTargets);
  } catch (error) {
    if (error instanceof RefusedTarget) throw new ApiError('TARGET_REFUSED', error.message);
    throw error;
  }
}
