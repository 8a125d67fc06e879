/**
 * @module Everything a running firewarden server holds: config, database, settings, the auth
 * stores of `@suite/web-auth` (rebuilt when an admin changes the session or login settings),
 * notifications and the agent probe. `serve`, the tests and the benchmark build it the same way.
 */
import { type AuditChainOptions, createWebAuth, type SqlDialectName, type WebAuth } from '@suite/web-auth';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { retentionOf } from '../agent-protocol/protocol.js';
import { firewardenAuditChain } from '../audit/audit-chain-files.js';
import type { Clock } from '../clock/clock.js';
import { keysSetByEnvironment } from '../config/env-overrides.js';
import type { Config } from '../config/schema.js';
import { createNotificationStore, type NotificationStore } from '../notifications/notification-store.js';
import type { EditableSettings } from '../settings/editable-settings.js';
import { createSettingsService, type SettingsService } from '../settings/settings-service.js';
import type { Database } from '../store/database.js';
import { openDatabase } from '../store/open-database.js';
import { createFirewallChanges, type FirewallChanges } from '../transactions/firewall-changes.js';
import { createTransactionStore } from '../transactions/transaction-store.js';
import { type PreparedDatabase, prepareDatabase } from './prepare-database.js';

/**
 * argon2id cost: OWASP's first recommended setting (m=19 MiB, t=2, p=1), about 30-50 ms per
 * hash on one core of the benchmark machine; see bench/README.md.
 */
export const argon2Parameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface Services {
  config: Config;
  configFile: string | null;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  /** Where the data lives, without credentials. */
  databaseLocation: string;
  migrations: PreparedDatabase;
  settings: SettingsService;
  /** The current auth stores (replaced when session or login settings change). */
  auth(): WebAuth;
  notifications: NotificationStore;
  /** Transactions and restore points, driven through the agent. */
  firewall: FirewallChanges;
  logger: Logger;
  clock: Clock;
  /** True when the test-only clock hook is active (reported by diagnostics). */
  testClock: boolean;
  startedAt: number;
  close(): Promise<void>;
}

interface ServicesOptions {
  config: Config;
  configFile: string | null;
  environment: NodeJS.ProcessEnv;
  logger: Logger;
  clock: Clock;
  testClock: boolean;
}

export async function createServices(options: ServicesOptions): Promise<Services> {
  const { config, logger, clock } = options;
  const opened = openDatabase<Database>(config.database);
  try {
    const migrations = await prepareDatabase(opened, config.database, clock);
    if (migrations.applied.length > 0) {
      logger.info({ applied: migrations.applied, backup: migrations.backup }, 'database migrated');
    }
    const settings = await createSettingsService({
      db: opened.db,
      config,
      lockedKeys: keysSetByEnvironment(options.environment),
      now: clock,
    });
    // One key and head for every rebuild of the auth stores.
    const auditChain = firewardenAuditChain(config);
    let auth = buildAuth(opened.db, clock, settings.current(), auditChain);
    settings.onChange((current) => {
      auth = buildAuth(opened.db, clock, current, auditChain);
      logger.level = current.logging.level;
    });
    logger.level = settings.current().logging.level;
    const notifications = createNotificationStore(opened.db, clock);
    const firewall = createFirewallChanges({
      socketPath: config.agent.socket_path,
      store: createTransactionStore(opened.db, clock),
      notifications,
      audit: (entry) => auth.audit.append(entry),
      safeApplyTimeoutSeconds: () => settings.current().firewall.safe_apply_timeout_seconds,
      retention: () => retentionOf(settings.current().restore_points),
      logger,
    });
    // Rollbacks the agent did while the server was down are recorded now, without delaying the start.
    void firewall.reconcile().catch((error: unknown) => logger.warn({ err: error }, 'reconcile failed'));
    return {
      config,
      configFile: options.configFile,
      db: opened.db,
      dialect: opened.dialect,
      databaseLocation: opened.location,
      migrations,
      settings,
      auth: () => auth,
      notifications,
      firewall,
      logger,
      clock,
      testClock: options.testClock,
      startedAt: clock(),
      close: () => opened.db.destroy(),
    };
  } catch (error) {
    await opened.db.destroy();
    throw error;
  }
}

function buildAuth(
  db: Kysely<Database>,
  now: Clock,
  settings: EditableSettings,
  audit: AuditChainOptions,
): WebAuth {
  return createWebAuth({
    db,
    now,
    audit,
    argon2: argon2Parameters,
    passwordPolicy: { minLength: 12 },
    sessions: {
      idleTimeoutSeconds: settings.security.session_idle_timeout_minutes * 60,
      absoluteLifetimeSeconds: settings.security.session_absolute_timeout_hours * 3_600,
      // Touch well within the idle window, so an active session never idles out between touches.
      touchIntervalSeconds: Math.min(60, settings.security.session_idle_timeout_minutes * 15),
      // Validated sessions stay in memory this long (README, "Session cache"): logout and user
      // changes made through this process apply at once, changes by another process within 5 s.
      cacheSeconds: 5,
    },
    throttle: { maxAttempts: settings.security.login_rate_limit_per_minute, windowSeconds: 60 },
  });
}
