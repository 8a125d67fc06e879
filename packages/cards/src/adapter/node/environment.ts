/**
 * @module What a Node process (the `readme-cards serve` bin, a Vercel function) reads from
 * `process.env`: the visitor store (`CARDS_STORE`), the shared data cache (`CARDS_CACHE_URL`)
 * and the GitHub settings, opened into `createApp` options.
 */
import { z } from 'zod';
import type { CreateAppOptions } from '../../app.js';
import type { CardLogger } from '../../http/services.js';
import { type CardCache, createMemoryCache } from '../../store/card-cache.js';
import { defaultStorePath, openVisitorStore } from '../../store/open-visitor-store.js';
import { createRedisCache } from '../../store/redis-cache.js';
import type { VisitorStore, VisitorStoreLimits } from '../../store/visitor-store.js';
import {
  describeEnvironmentError,
  githubEnvironmentSchema,
  githubSettingsFrom,
} from '../github-environment.js';
import { visitorEnvironmentSchema, visitorLimitsFrom } from '../visitor-environment.js';
import { simpleIconsOnDisk } from './simple-icons-on-disk.js';

const nodeEnvironmentSchema = githubEnvironmentSchema.extend(visitorEnvironmentSchema.shape).extend({
  CARDS_STORE: z.string().min(1).optional(),
  CARDS_CACHE_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'CARDS_CACHE_URL must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** A variable holds a value the service cannot use; the message names it. */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

/** `createApp` options with the opened stores, which the caller closes on shutdown. */
interface NodeAppOptions extends CreateAppOptions {
  visitors: VisitorStore;
  cache: CardCache;
}

interface EnvironmentDefaults {
  /** The visitor store when `CARDS_STORE` is unset; default the SQLite file `./data/cards.db`. */
  visitorsWithoutStore?: (limits: VisitorStoreLimits) => VisitorStore | Promise<VisitorStore>;
}

/**
 * Parses `environment` and opens its stores (a SQLite file by default, created with its folder).
 * Throws `EnvironmentError` for an invalid value.
 *
 * @example const options = await appOptionsFromEnvironment(process.env, logger);
 */
export async function appOptionsFromEnvironment(
  environment: Record<string, string | undefined>,
  logger?: CardLogger,
  defaults: EnvironmentDefaults = {},
): Promise<NodeAppOptions> {
  const parsed = nodeEnvironmentSchema.safeParse(environment);
  if (!parsed.success) throw new EnvironmentError(describeEnvironmentError(parsed.error));
  const settings = parsed.data;
  const logRedisError = (role: string) => (error: Error) =>
    logger?.warn({ err: error.message, role }, 'redis connection error');
  const limits = visitorLimitsFrom(settings);
  const visitors =
    settings.CARDS_STORE === undefined && defaults.visitorsWithoutStore
      ? await defaults.visitorsWithoutStore(limits)
      : await openVisitorStore(settings.CARDS_STORE ?? defaultStorePath, {
          ...limits,
          onRedisError: logRedisError('visitor store'),
        });
  const cache = settings.CARDS_CACHE_URL
    ? createRedisCache(settings.CARDS_CACHE_URL, logRedisError('card cache'))
    : createMemoryCache();
  return { visitors, cache, github: githubSettingsFrom(settings), logger, logos: simpleIconsOnDisk() };
}
