/**
 * @module Persistent state: the visitor counter stores and the upstream data cache.
 */
export {
  boundVisitorStore,
  MAX_VISITOR_KEY_BYTES,
  VisitorLimitError,
  type VisitorLimits,
} from './bounded-visitor-store.js';
export { createCacheApiCache, type WebCache } from './cache-api-cache.js';
export { type CardCache, createMemoryCache, type MemoryCacheOptions } from './card-cache.js';
export { createD1VisitorStore, type D1Binding, type D1Statement } from './d1-visitor-store.js';
export { defaultStorePath, type OpenVisitorStoreOptions, openVisitorStore } from './open-visitor-store.js';
export { createRedisCache } from './redis-cache.js';
export {
  createMemoryVisitorStore,
  defaultVisitorBudget,
  defaultVisitorRetention,
  type VisitorBudget,
  VisitorBudgetError,
  type VisitorRetention,
  type VisitorStore,
  type VisitorStoreLimits,
} from './visitor-store.js';
