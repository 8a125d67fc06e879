/**
 * @module Shared server plumbing of the suite's HTTP products.
 */
export { createLogger, type Logger, type LoggerSettings } from './logger.js';
export {
  type FetchHandler,
  formatUrl,
  type NodeServerOptions,
  type RunningServer,
  startNodeServer,
} from './serve.js';
