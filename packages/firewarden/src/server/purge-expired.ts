/**
 * @module Deletes finished sign-in failure counts and expired sessions every few minutes: each
 * failed sign-in writes rows to `auth_lockouts` (per client, username and pair), so without this
 * an attack from many addresses would grow the table for good.
 */
import type { Services } from './services.js';

const everyMs = 5 * 60_000;

/** Starts the job; returns what stops it. */
export function startPurgingExpired(services: Services): () => void {
  const timer = setInterval(() => {
    services
      .auth()
      .purgeExpired()
      .catch((error: unknown) => services.logger.warn({ err: error }, 'purging expired rows failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
