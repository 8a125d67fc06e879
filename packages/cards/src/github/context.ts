/**
 * @module What every fetcher needs: the client that talks to GitHub and the cache in front of it.
 */
import type { GitHubClient } from './client.js';
import type { ResourceCache } from './resource-cache.js';

export interface FetchContext {
  client: GitHubClient;
  cache: ResourceCache;
  now: () => number;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** Cache keys ignore case: GitHub logins and repository names are case-insensitive. */
export function keyPart(name: string): string {
  return name.toLowerCase();
}
