/**
 * @module Starts the daemon: data dir and database, web-auth, the bind rules, the Hono app on
 * Node (listening line, clean shutdown on SIGTERM / SIGINT).
 */
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { createLogger, type Logger, type RunningServer, startNodeServer } from '@suite/server-kit';
import { auditChainFiles, createWebAuth } from '@suite/web-auth';
import { mergeProfiles } from './attempts/agent-profiles.js';
import { AttemptRunner } from './attempts/attempt-runner.js';
import { readConfiguredProfiles } from './attempts/profile-config.js';
import { TaskLanding } from './attempts/task-landing.js';
import { SetupGate, setupTokenFileName, setupUrl } from './auth/setup-token.js';
import { openDatabase } from './db/open-database.js';
import { defaultFileLimits, type FileLimits } from './files/limits.js';
import { createApp, socketEndpoints } from './http/app.js';
import type { DaemonContext } from './http/app-env.js';
import { NotificationCenter } from './notifications/notification-center.js';
import { DeliveryQueue } from './outbound/delivery-queue.js';
import { type DeliveryPolicy, defaultDeliveryTiming } from './outbound/signed-delivery.js';
import { packageName, packageVersion } from './package-info.js';
import { startWebhookDispatcher } from './platform/webhook-dispatcher.js';
import { PreviewAccess } from './preview/preview-access.js';
import { startPreviewServer } from './preview/preview-server.js';
import { PreviewTokens } from './preview/preview-tokens.js';
import { PushSender } from './push/push-sender.js';
import { checkPushSubject, defaultPushSubject } from './push/push-subject.js';
import { loadOrCreateVapidKeys } from './push/vapid-keys.js';
import { AttentionCenter } from './realtime/attention-center.js';
import { EventBus } from './realtime/event-bus.js';
import { startSessionExpiry } from './realtime/session-expiry.js';
import { endSocket } from './realtime/socket-close.js';
import { SocketRegistry } from './realtime/socket-registry.js';
import { handleUpgrades } from './realtime/upgrade-handler.js';
import { checkBind, loopbackHostNames } from './security/bind-policy.js';
import { startAgentMonitor } from './terminals/agents/agent-monitor.js';
import { TerminalManager } from './terminals/terminal-manager.js';
import { WorkflowRunner } from './workflows/workflow-runner.js';

const purgeIntervalMs = 5 * 60_000;

export interface DaemonOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  /** Extra Host header names accepted (besides the listening address's loopback names with the port). */
  allowedHosts?: string[];
  /** Extra exact Origins allowed to mutate and upgrade. */
  allowedOrigins?: string[];
  /** PEM files; with both set the daemon serves HTTPS and marks its cookie Secure. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Listen on a non-loopback address without TLS (behind a TLS-terminating proxy). */
  allowInsecureRemote?: boolean;
  /** Mark the session cookie `Secure` without TLS here (an HTTPS proxy in front); implied by TLS. */
  secureCookies?: boolean;
  /**
   * The preview origin's listener on 127.0.0.1 (README "Previews"); default `port + 1` (7677 for
   * 7676), or any free port when `port` is 0 or that one is taken. A port given here must be free.
   */
  previewPort?: number;
  /** Sign-in attempts per client address per minute; default 5 (web-auth's). */
  loginAttemptsPerMinute?: number;
  fileLimits?: Partial<FileLimits>;
  logger?: Logger;
  /** Webhooks and notification targets on loopback, private and link-local addresses. */
  allowPrivateTargets?: boolean;
  /** Outbound delivery timing; default 5 s per attempt, retries after 1 s and 4 s. */
  deliveryTiming?: Partial<Pick<DeliveryPolicy, 'timeoutMs' | 'retryDelaysMs'>>;
  /**
   * Let the first caller of `POST /setup` become the owner without the one-time setup token
   * (`--setup-open`: tests, containers); by default the token is required (auth/setup-token.ts).
   */
  setupOpen?: boolean;
  /** The VAPID contact (`mailto:` or `https:`) push services see; default push/push-subject.ts. */
  pushSubject?: string;
  /** The config file (agent profiles); default `<data dir>/config.json` when it exists. */
  configFile?: string;
  /** Passed to startNodeServer (tests run several daemons in one process). */
  exitOnSignal?: boolean;
}

function defaultPreviewPort(port: number): number {
  return port === 0 || port === 65_535 ? 0 : port + 1;
}

export async function startDaemon(options: DaemonOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ name: packageName });
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // Canonical, so worktree paths compare equal to what `git worktree list` prints.
  const dataDir = realpathSync(options.dataDir);
  const database = await openDatabase(dataDir);
  let stopPreviews: (() => Promise<void>) | undefined;
  try {
    const { db } = database;
    const tls =
      options.tlsCertFile && options.tlsKeyFile
        ? { cert: readFileSync(options.tlsCertFile), key: readFileSync(options.tlsKeyFile) }
        : undefined;
    const auth = createWebAuth({
      db,
      // The audit chain's HMAC key and head live beside the database, outside it (mode 0600).
      audit: auditChainFiles(dataDir),
      throttle: options.loginAttemptsPerMinute ? { maxAttempts: options.loginAttemptsPerMinute } : {},
    });
    // The first user is the owner (POST /setup creates no other).
    const ownerExists = (await auth.users.count()) > 0;
    checkBind({
      host: options.host,
      ownerExists,
      tls: tls !== undefined,
      allowInsecureRemote: options.allowInsecureRemote === true,
    });
    const setup = SetupGate.create(dataDir, { ownerExists, open: options.setupOpen === true });
    const events = new EventBus();
    const terminals = new TerminalManager(events);
    const attention = new AttentionCenter(events);
    const attempts = new AttemptRunner({
      db,
      dataDir,
      terminals,
      events,
      attention,
      logger,
      profiles: mergeProfiles(await readConfiguredProfiles(dataDir, options.configFile)),
    });
    await attempts.recover();
    const landing = new TaskLanding({ db, attempts, findUser: (id) => auth.users.getById(id) });
    const workflows = new WorkflowRunner({ db, terminals, events, attention, logger, landing });
    await workflows.recover();
    const delivery: DeliveryPolicy = {
      ...defaultDeliveryTiming,
      ...options.deliveryTiming,
      allowPrivateTargets: options.allowPrivateTargets === true,
      userAgent: `${packageName}/${packageVersion}`,
    };
    const deliveries = new DeliveryQueue(delivery);
    const push = new PushSender({
      db,
      // Made once into the data dir (0600) and reused: browsers subscribed with its public key.
      vapid: loadOrCreateVapidKeys(dataDir),
      subject: checkPushSubject(options.pushSubject ?? defaultPushSubject),
      deliveries,
      logger,
    });
    const notifications = new NotificationCenter({
      db,
      events,
      findUser: (id) => auth.users.getById(id),
      delivery,
      deliveries,
      push,
      logger,
    });
    const stopWebhooks = startWebhookDispatcher({ db, events, deliveries, logger });
    const openSockets = new SocketRegistry();
    const stopSessionExpiry = startSessionExpiry(auth, openSockets, logger);
    const context: DaemonContext = {
      db,
      dataDir,
      fileLimits: { ...defaultFileLimits, ...options.fileLimits },
      logger,
      name: packageName,
      version: packageVersion,
      startedAt: Date.now(),
      terminals,
      events,
      attention,
      workflows,
      delivery,
      notifications,
      push,
      sockets: openSockets,
      attempts,
      landing,
    };
    let listeningPort: number | undefined;
    const previewTokens = new PreviewTokens();
    const ownPorts = () => [listeningPort, previews.port];
    // Started first: a preview port already taken stops the daemon before it says it listens.
    const previews = await startPreviewServer({
      host: '127.0.0.1',
      port: options.previewPort ?? defaultPreviewPort(options.port),
      fallbackToFreePort: options.previewPort === undefined,
      tokens: previewTokens,
      access: new PreviewAccess(auth, db),
      ownPorts,
      logger,
    });
    stopPreviews = previews.close;
    logger.info({ port: previews.port }, `previews served on http://p<port>.localhost:${previews.port}`);
    const app = createApp({
      context,
      auth,
      port: () => listeningPort,
      allowedHosts: options.allowedHosts ?? [],
      loopbackNames: loopbackHostNames(options.host),
      allowedOrigins: options.allowedOrigins ?? [],
      secureCookies: tls !== undefined || options.secureCookies === true,
      setup: setup.gate,
      previews: { db, tokens: previewTokens, ownPorts, previewPort: () => previews.port },
    });
    let purge: NodeJS.Timeout | undefined;
    const stopAgentMonitor = startAgentMonitor({ terminals, events, attention, logger });
    const running = await startNodeServer({
      fetch: app.fetch,
      host: options.host,
      port: options.port,
      logger,
      tls,
      exitOnSignal: options.exitOnSignal,
      onShutdown: async () => {
        clearInterval(purge);
        stopSessionExpiry();
        stopAgentMonitor();
        await previews.close();
        workflows.stop();
        attempts.stop();
        notifications.stop();
        stopWebhooks();
        await terminals.terminateAll();
        await database.close();
      },
    });
    listeningPort = running.port;
    // After the contract's listening line, never before it.
    if (setup.token !== undefined)
      process.stdout.write(
        `create the first owner: open ${setupUrl(running.url, setup.token)} (one use; the token is also in ${path.join(dataDir, setupTokenFileName)})\n`,
      );
    const sockets = handleUpgrades(running.server, {
      auth,
      db,
      terminals,
      events,
      sockets: openSockets,
      logger,
      port: () => listeningPort,
      allowedHosts: options.allowedHosts ?? [],
      loopbackNames: loopbackHostNames(options.host),
      allowedOrigins: options.allowedOrigins ?? [],
      endpoints: socketEndpoints,
    });
    // The HTTP server waits for upgraded sockets too: end them as soon as a stop begins.
    // A client that never answers the close handshake is cut off after a second, not endSocket's 10 s.
    const endSockets = () => {
      for (const client of sockets.clients) endSocket(client, 1001, 'daemon stopping', 1_000);
    };
    if (options.exitOnSignal !== false)
      for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, endSockets);
    // Expired sessions and lock rows are only deleted when someone asks; ask every few minutes.
    purge = setInterval(() => {
      auth
        .purgeExpired()
        .catch((error: unknown) => logger.warn({ err: error }, 'purging expired sessions failed'));
    }, purgeIntervalMs);
    purge.unref();
    return {
      ...running,
      close: () => {
        endSockets();
        return running.close();
      },
    };
  } catch (error) {
    await stopPreviews?.();
    await database.close();
    throw error;
  }
}
