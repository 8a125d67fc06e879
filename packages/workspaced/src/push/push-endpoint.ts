/**
 * @module Where a push subscription may send: an `https:` URL without credentials, under the
 * outbound address policy (outbound/address-policy.ts: no private, loopback or link-local
 * address without `--allow-private-targets`). Plain `http:` only to a loopback address and only
 * with that opt-in: a local test or development push service. Push services are not pinned to a
 * list of known hosts: self-hosted ones (UnifiedPush, ntfy, Mozilla's autopush) are legitimate.
 */
import { isIP } from 'node:net';
import { ApiError } from '../http/api-error.js';
import { requireAllowedTarget } from '../outbound/target-check.js';

const loopbackHost = (host: string) =>
  host === 'localhost' || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'));

export function requireAllowedEndpoint(endpoint: string, allowPrivateTargets: boolean): void {
  requireAllowedTarget(endpoint, allowPrivateTargets);
  const url = new URL(endpoint);
  if (url.protocol === 'https:') return;
  if (!(allowPrivateTargets && loopbackHost(url.hostname)))
    throw new ApiError('TARGET_REFUSED', 'a push endpoint must be an https URL');
}
