/**
 * @module What the server tells operators when it starts, as notifications (and log lines): the
 * insecure-bind opt-in in use, a migration with its backup file, a broken audit chain.
 */
import { isLoopbackHost } from '../config/bind-policy.js';
import type { Services } from './services.js';

export async function startupNotices(services: Services): Promise<void> {
  const { config, notifications, logger } = services;
  if (!isLoopbackHost(config.server.bind) && !config.tls.enabled) {
    await notifications.add({
      severity: 'warning',
      code: 'INSECURE_BIND',
      title: 'Listening without TLS',
      message: `firewarden listens on ${config.server.bind} without TLS (allow_insecure_bind): passwords and sessions cross the network in clear text.`,
    });
  }
  if (services.migrations.applied.length > 0) {
    await notifications.add({
      severity: 'info',
      code: 'DB_MIGRATED',
      title: 'Database migrated',
      message: `Applied ${services.migrations.applied.length} migration(s).`,
      details: { applied: services.migrations.applied, backup: services.migrations.backup },
    });
  }
  // Incremental: only entries since the last verification are hashed (the daily retention job
  // verifies everything); the head kept outside the database is checked every time.
  const verdict = await services.auth().audit.verifyChain({ incremental: true });
  if (!verdict.ok) {
    logger.error({ verdict }, 'audit chain broken');
    await notifications.add({
      severity: 'critical',
      code: 'AUDIT_CHAIN_BROKEN',
      title: 'Audit trail altered',
      message: `The audit chain breaks at entry ${verdict.brokenSeq} (${verdict.reason}): ${verdict.problem}. Someone changed or removed audit entries.`,
      details: { ...verdict },
    });
  }
}
