/**
 * @module Shared server plumbing of the suite's HTTP products.
 */

export { createLogger, type LogFile, type Logger, type LoggerSettings } from './logger.js';
export { isLoopbackHost } from './loopback.js';
export {
  defaultTimeouts,
  type FetchHandler,
  formatUrl,
  type NodeServerOptions,
  type RunningServer,
  type ServerTimeouts,
  startNodeServer,
} from './serve.js';
export { migrateDespiteDroppedSchemas } from './shared-database-migrations.js';
export { type StaticUiOptions, staticUi } from './static-ui.js';
