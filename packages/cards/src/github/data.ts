/**
 * @module The GitHub data service the card endpoints use: client + cache + fetchers.
 */
import type { CacheStore } from './cache-store.js';
import { createGitHubClient, type GitHubClient } from './client.js';
import type { FetchContext } from './context.js';
import { fetchCommitLanguageSizes } from './fetchers/commit-languages.js';
import { fetchCommitTimes } from './fetchers/commit-times.js';
import { type Contributions, fetchContributions } from './fetchers/contributions.js';
import { fetchTimeline, type TimelineEvent } from './fetchers/events.js';
import { fetchLanguageSizes, type LanguageSize } from './fetchers/languages.js';
import { fetchRepository, type Repository } from './fetchers/repository.js';
import { fetchStarHistory, type StarHistory } from './fetchers/star-history.js';
import { fetchUserStats, type UserStats } from './fetchers/user-stats.js';
import { createResourceCache, type ResourceCache } from './resource-cache.js';

interface GitHubDataOptions {
  /** REST base URL; GraphQL is `${apiUrl}/graphql`. Default `https://api.github.com`. */
  apiUrl?: string;
  tokens?: readonly string[];
  store: CacheStore;
  /** Time for one upstream call including retries; default 2,500 ms. */
  budgetMs?: number;
  /** GitHub calls one client may cause per minute (charged through `until`); default unlimited. */
  callsPerClientPerMinute?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Reports background refresh failures (they never fail a request: stale data is served). */
  onError?: (message: string, error: unknown) => void;
}

export interface GitHubData {
  contributions(login: string): Promise<Contributions>;
  userStats(login: string): Promise<UserStats>;
  /** Language sizes summed over the user's repositories, less `excludedRepositories`. */
  languages(login: string, excludedRepositories?: readonly string[]): Promise<LanguageSize[]>;
  /** Languages weighted by the user's commits of the last year to each repository (any owner). */
  commitLanguages(login: string): Promise<LanguageSize[]>;
  repository(owner: string, name: string): Promise<Repository>;
  starHistory(owner: string, name: string): Promise<StarHistory>;
  timeline(login: string): Promise<TimelineEvent[]>;
  commitTimes(login: string): Promise<number[]>;
  /**
   * The same data service with every upstream call of the request ending by `deadline`
   * (`performance.now()` time) and charged to `client` when given.
   */
  until(deadline: number, client?: string): GitHubData;
  readonly client: GitHubClient;
  readonly cache: ResourceCache;
  readonly now: () => number;
}

export function createGitHubData(options: GitHubDataOptions): GitHubData {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const client = createGitHubClient({
    apiUrl: options.apiUrl,
    tokens: options.tokens,
    budgetMs: options.budgetMs,
    callsPerClientPerMinute: options.callsPerClientPerMinute,
    fetch: options.fetch,
    now,
  });
  const cache = createResourceCache({
    store: options.store,
    now,
    onRefreshError: (key, error) => onError(`background refresh of ${key} failed`, error),
  });
  const serviceFor = (context: FetchContext): GitHubData => ({
    client: context.client,
    cache,
    now,
    until: (deadline, client) => serviceFor({ ...context, client: context.client.bounded(deadline, client) }),
    contributions: (login) => fetchContributions(context, login),
    userStats: (login) => fetchUserStats(context, login),
    languages: (login, excluded) => fetchLanguageSizes(context, login, excluded),
    commitLanguages: (login) => fetchCommitLanguageSizes(context, login),
    repository: (owner, name) => fetchRepository(context, owner, name),
    starHistory: (owner, name) => fetchStarHistory(context, owner, name),
    timeline: (login) => fetchTimeline(context, login),
    commitTimes: (login) => fetchCommitTimes(context, login),
  });
  return serviceFor({ client, cache, now });
}
