/**
 * @module Cloudflare Workers entry (`wrangler.toml` points here): the visitor counter in D1
 * (binding `DB`), GitHub data in the Cache API behind the isolate's memory, tokens from the
 * `GITHUB_TOKENS` secret.
 */
import type { Hono } from 'hono';
import { createApp } from '../../app.js';
import { createCacheApiCache, type WebCache } from '../../store/cache-api-cache.js';
import { createMemoryCache } from '../../store/card-cache.js';
import { createD1VisitorStore, type D1Binding } from '../../store/d1-visitor-store.js';
import { createTieredCache } from '../../store/tiered-cache.js';
import { createMemoryVisitorStore } from '../../store/visitor-store.js';
import { errorCard } from '../../svg/error-card.js';
import {
  describeEnvironmentError,
  githubEnvironmentSchema,
  githubSettingsFrom,
} from '../github-environment.js';
import {
  type VisitorEnvironment,
  visitorEnvironmentSchema,
  visitorLimitsFrom,
} from '../visitor-environment.js';

/** The Worker's bindings (`wrangler.toml` vars, secrets and the D1 database). */
interface WorkerEnv extends Partial<Record<keyof VisitorEnvironment, string>> {
  /** D1 database of the visitor counter; without it counts live in the isolate's memory. */
  DB?: D1Binding;
  GITHUB_TOKENS?: string;
  GITHUB_TOKEN?: string;
  GITHUB_API_URL?: string;
}

/** GitHub entries an isolate keeps in memory (isolates have 128 MB; entries are a few KB). */
const isolateCacheEntries = 1_000;

/** The Workers runtime's `caches` global (not in TypeScript's ES library). */
declare const caches: { open(name: string): Promise<WebCache> };

/** Logs to the Workers console (`wrangler tail`), which keeps objects as JSON. */
const workerLogger = {
  warn: (details: object, message: string) => console.warn(message, details),
  error: (details: object, message: string) => console.error(message, details),
};

function misconfigured(message: string): Response {
  return new Response(errorCard(500, `Worker misconfigured: ${message}`), {
    status: 500,
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * One app per isolate, so its in-memory layers (parsed queries, drawn cards, GitHub data,
 * single-flight) serve every request the isolate handles. Bindings are fixed for a deployed
 * version, and a new version starts new isolates.
 */
let built: Promise<Hono> | undefined;

async function buildApp(env: WorkerEnv): Promise<Hono> {
  const parsed = githubEnvironmentSchema.extend(visitorEnvironmentSchema.shape).safeParse(env);
  if (!parsed.success) throw new Error(describeEnvironmentError(parsed.error));
  if (env.DB === undefined) console.warn('no D1 binding DB: the visitor counter is not persistent');
  const limits = visitorLimitsFrom(parsed.data);
  return createApp({
    visitors: env.DB
      ? createD1VisitorStore(env.DB, undefined, undefined, limits)
      : createMemoryVisitorStore(limits),
    // The isolate's memory answers repeated reads; the Cache API is shared by the data centre.
    cache: createTieredCache(
      createMemoryCache({ maxEntries: isolateCacheEntries }),
      createCacheApiCache(await caches.open('readme-cards')),
    ),
    github: githubSettingsFrom(parsed.data),
    logger: workerLogger,
  });
}

function appFor(env: WorkerEnv): Promise<Hono> {
  if (built !== undefined) return built;
  const app = buildApp(env);
  built = app;
  // A failed build (invalid variable) is retried on the next request, not kept.
  app.catch(() => {
    if (built === app) built = undefined;
  });
  return app;
}

export default {
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    let app: Hono;
    try {
      app = await appFor(env);
    } catch (error) {
      return misconfigured(error instanceof Error ? error.message : String(error));
    }
    return app.fetch(request);
  },
};
