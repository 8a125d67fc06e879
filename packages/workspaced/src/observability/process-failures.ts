/**
 * @module What the bin does with a failure nothing else caught. An unhandled promise rejection is
 * logged as an error and the daemon keeps running: one failed background task (a delivery, a
 * dispatch) must not take every terminal and running workflow step with it. An uncaught
 * exception stays fatal (Node's default: print, exit 1), since a synchronous throw may leave the
 * code it interrupted half done; it is logged first through the daemon's logger.
 */
import type { Logger } from 'pino';

export function logProcessFailures(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the daemon keeps running');
  });
  // A monitor only: it logs without replacing Node's exit.
  process.on('uncaughtExceptionMonitor', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; the daemon exits');
  });
}
