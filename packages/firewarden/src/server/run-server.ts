/**
 * @module `firewarden serve`: refuses an insecure bind, opens the log and the database (applying
 * migrations when safe), then serves the API over HTTP or HTTPS with the suite's operating
 * contract (one `listening on` line, clean exit on SIGTERM / SIGINT).
 */
import { readFileSync } from 'node:fs';
import { startNodeServer } from '@suite/server-kit';
import { startAuditRetention } from '../audit/audit-retention.js';
import { chooseClock } from '../clock/clock.js';
import { insecureBindProblem, isLoopbackHost } from '../config/bind-policy.js';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import { createApp } from '../http/app.js';
import { createFileLogger } from '../logging/file-logger.js';
import { startPurgingExpired } from './purge-expired.js';
import { createServices, type Services } from './services.js';
import { startupNotices } from './startup-notices.js';

interface RunServerOptions {
  config: Config;
  configFile: string | null;
  environment: NodeJS.ProcessEnv;
}

export async function runServer({ config, configFile, environment }: RunServerOptions) {
  const problem = insecureBindProblem(config);
  if (problem) throw new ConfigError(problem);
  const tls = config.tls.enabled ? readTlsFiles(config) : undefined;
  const logger = createFileLogger(config.logging);
  const { clock, testClock, refused } = chooseClock(environment, isLoopbackHost(config.server.bind));
  if (refused) logger.warn(refused);
  if (testClock) logger.warn('TEST CLOCK ACTIVE: time is shifted by the test hook');

  const services: Services = await createServices({
    config,
    configFile,
    environment,
    logger,
    clock,
    testClock,
  });
  let port: number | undefined;
  let stopRetention = () => {};
  let stopPurging = () => {};
  let closing = false;
  const app = createApp(services, { tls: tls !== undefined, port: () => port });
  const running = await startNodeServer({
    fetch: app.fetch,
    host: config.server.bind,
    port: config.server.port,
    tls,
    logger,
    onShutdown: async () => {
      closing = true;
      stopRetention();
      stopPurging();
      await services.close();
      logger.flush();
    },
  });
  port = running.port;
  stopPurging = startPurgingExpired(services);
  // After the listening line: an O(n) chain check must not delay accepting connections.
  // The retention job follows the chain check, so a broken chain is reported before it is kept whole.
  void startupNotices(services)
    .catch((error: unknown) => logger.error({ err: error }, 'startup checks failed'))
    .then(() => {
      if (!closing) stopRetention = startAuditRetention(services);
    });
  return running;
}

function readTlsFiles(config: Config): { cert: Buffer; key: Buffer } {
  const read = (label: string, file: string | undefined) => {
    try {
      return readFileSync(file ?? '');
    } catch (error) {
      throw new ConfigError(
        `tls.${label}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
  };
  return { cert: read('cert_file', config.tls.cert_file), key: read('key_file', config.tls.key_file) };
}
