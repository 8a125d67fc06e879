/**
 * @module Persistent state: the visitor counter stores and the upstream data cache.
 */
export { type CardCache, createMemoryCache, type MemoryCacheOptions } from './card-cache.js';
export { defaultStorePath, type OpenVisitorStoreOptions, openVisitorStore } from './open-visitor-store.js';
export { createRedisCache } from './redis-cache.js';
export { createMemoryVisitorStore, type VisitorStore } from './visitor-store.js';
