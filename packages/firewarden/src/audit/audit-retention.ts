/**
 * @module The audit retention job of `serve`: once at start and then daily, deletes audit entries
 * and refusal counts older than `audit.retention_days` (0 keeps everything). web-auth prunes only
 * after a full verification passes, keeps the newest entry and the one the head names, and leaves
 * a signed checkpoint that verification starts from; a trail that does not verify is kept whole.
 */
import type { Services } from '../server/services.js';

const day = 86_400_000;

async function pruneAuditTrail(services: Services): Promise<void> {
  const days = services.config.audit.retention_days;
  if (days === 0) return;
  const result = await services.auth().audit.prune(services.clock() - days * day);
  if (result.refused)
    services.logger.error(
      { verdict: result.refused },
      'audit retention skipped: the audit chain does not verify',
    );
  else if (result.pruned > 0 || result.refusalWindows > 0)
    services.logger.info(
      { pruned: result.pruned, refusal_windows: result.refusalWindows, checkpoint: result.checkpoint },
      'audit retention pruned old entries',
    );
}

/** Runs the job now and every day; returns the function that stops it. */
export function startAuditRetention(services: Services): () => void {
  const run = () =>
    void pruneAuditTrail(services).catch((error: unknown) =>
      services.logger.error({ err: error }, 'audit retention failed'),
    );
  run();
  const timer = setInterval(run, day);
  timer.unref();
  return () => clearInterval(timer);
}
