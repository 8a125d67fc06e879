/**
 * @module The GitHub data service the card endpoints use: client + cache + fetchers, configured
 * from the environment (`GITHUB_TOKENS`, `GITHUB_TOKEN`, `GITHUB_API_URL`, `CARDS_CACHE_URL`).
 */
import { type CacheStore, createMemoryStore, createRedisStore } from './cache-store.js';
import { createGitHubClient, DEFAULT_API_URL, type GitHubClient } from './client.js';
import type { FetchContext } from './context.js';
import { fetchCommitTimes } from './fetchers/commit-times.js';
import { type Contributions, fetchContributions } from './fetchers/contributions.js';
import { fetchTimeline, type TimelineEvent } from './fetchers/events.js';
import { fetchLanguageSizes, type LanguageSize } from './fetchers/languages.js';
import { fetchRepository, type Repository } from './fetchers/repository.js';
import { fetchStarHistory, type StarHistory } from './fetchers/star-history.js';
import { fetchUserStats, type UserStats } from './fetchers/user-stats.js';
import { createResourceCache, type ResourceCache } from './resource-cache.js';
import { tokensFromEnv } from './token-pool.js';

export interface GitHubDataOptions {
  apiUrl?: string;
  tokens?: readonly string[];
  /** `redis://...` for a cache shared between instances; in-process LRU otherwise. */
  cacheUrl?: string;
  /** Overrides the store (tests). */
  store?: CacheStore;
  budgetMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Reports background refresh and cache failures (they never fail a request). */
  onError?: (message: string, error: unknown) => void;
}

export interface GitHubData {
  contributions(login: string): Promise<Contributions>;
  userStats(login: string): Promise<UserStats>;
  languages(login: string): Promise<LanguageSize[]>;
  repository(owner: string, name: string): Promise<Repository>;
  starHistory(owner: string, name: string): Promise<StarHistory>;
  timeline(login: string): Promise<TimelineEvent[]>;
  commitTimes(login: string): Promise<number[]>;
  readonly client: GitHubClient;
  readonly cache: ResourceCache;
  readonly now: () => number;
  close(): Promise<void>;
}

/** Reads the data-layer settings of the operating contract from environment variables. */
export function gitHubDataOptionsFromEnv(env: Record<string, string | undefined>): GitHubDataOptions {
  const options: GitHubDataOptions = {
    apiUrl: env.GITHUB_API_URL?.trim() || DEFAULT_API_URL,
    tokens: tokensFromEnv(env),
  };
  const cacheUrl = env.CARDS_CACHE_URL?.trim();
  if (cacheUrl) options.cacheUrl = cacheUrl;
  return options;
}

export function createGitHubData(options: GitHubDataOptions = {}): GitHubData {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const store =
    options.store ??
    (options.cacheUrl
      ? createRedisStore(options.cacheUrl, (error) => onError('redis cache error', error))
      : createMemoryStore());
  const client = createGitHubClient({
    apiUrl: options.apiUrl,
    tokens: options.tokens,
    budgetMs: options.budgetMs,
    fetch: options.fetch,
    now,
  });
  const cache = createResourceCache({
    store,
    now,
    onRefreshError: (key, error) => onError(`background refresh of ${key} failed`, error),
  });
  const context: FetchContext = { client, cache, now };
  return {
    client,
    cache,
    now,
    contributions: (login) => fetchContributions(context, login),
    userStats: (login) => fetchUserStats(context, login),
    languages: (login) => fetchLanguageSizes(context, login),
    repository: (owner, name) => fetchRepository(context, owner, name),
    starHistory: (owner, name) => fetchStarHistory(context, owner, name),
    timeline: (login) => fetchTimeline(context, login),
    commitTimes: (login) => fetchCommitTimes(context, login),
    close: () => cache.close(),
  };
}
