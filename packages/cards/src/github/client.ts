/**
 * @module GitHub GraphQL + REST client on Node fetch: token rotation, rate-limit detection and
 * retries with backoff inside a total time budget, so every card answers in time.
 */

import { createPerClientWindow } from '../http/per-client-window.js';
import { withoutTrailingSlashes } from './api-url.js';
import { GitHubError, notFound, rateLimited, upstreamDown } from './errors.js';
import { createTokenPool, type TokenPool } from './token-pool.js';

interface GitHubClientOptions {
  /** Base URL of the REST API; GraphQL is `${apiUrl}/graphql`. Default `https://api.github.com`. */
  apiUrl?: string;
  /** Token pool (from `GITHUB_TOKENS`/`GITHUB_TOKEN`); empty means anonymous REST only. */
  tokens?: readonly string[];
  /** Total time for one call including retries. Default 2,500 ms (a card must answer under 3 s). */
  budgetMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** GitHub calls one client may cause per minute (see `bounded`); default unlimited. */
  callsPerClientPerMinute?: number;
}

export type RestResult<T> = { status: 200; data: T; etag: string | undefined } | { status: 304 };

interface RestOptions {
  accept?: string;
  /** ETag of the cached copy: a 304 answer costs no rate limit. */
  etag?: string;
  /** Names the resource in a 404 ("user octocat"). */
  subject: string;
}

export interface GitHubClient {
  graphql<T>(query: string, variables: Record<string, unknown>, subject: string): Promise<T>;
  rest<T>(path: string, options: RestOptions): Promise<RestResult<T>>;
  /**
   * The same client with every call also ending by `deadline` (a `performance.now()` time), so
   * a card that needs several calls in a row still answers in time; each call is charged to
   * `client` when given (a 429 once its calls of the minute are spent).
   */
  bounded(deadline: number, client?: string): GitHubClient;
  readonly pool: TokenPool;
}

const DEFAULT_API_URL = 'https://api.github.com';
const DEFAULT_BUDGET_MS = 2_500;
/** First retry delay; doubled each time (with jitter) while the budget allows. */
const BACKOFF_BASE_MS = 80;
/** Secondary limits without retry-after: GitHub asks to wait at least a minute. */
const SECONDARY_LIMIT_PAUSE_MS = 60_000;
/** A rejected token (401) stays out for an hour: it will not fix itself sooner. */
const BAD_CREDENTIALS_PAUSE_MS = 3_600_000;

interface GraphQLErrorBody {
  type?: string;
  message?: string;
}

interface GraphQLBody<T> {
  data?: T | null;
  errors?: GraphQLErrorBody[];
}

/** What one attempt concluded: a value, or why to try again (`wait` ms before, 0 = at once). */
type Attempt<T> = { done: T } | { retry: string; wait: number };

export function createGitHubClient(options: GitHubClientOptions = {}): GitHubClient {
  const apiUrl = withoutTrailingSlashes(options.apiUrl ?? DEFAULT_API_URL);
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const pool = createTokenPool(options.tokens ?? [], now);
  // GitHub calls per client and minute, so one client asking for cold cards of ever new accounts
  // cannot spend the whole token pool.
  const budget =
    options.callsPerClientPerMinute === undefined
      ? null
      : createPerClientWindow({
          limit: options.callsPerClientPerMinute,
          windowMs: 60_000,
          maxClients: 50_000,
          now,
        });

  /** Benches the token when the response says a limit was hit; true if it did. */
  function benchIfLimited(token: string, response: Response, limitedInBody: boolean): boolean {
    const remaining = headerNumber(response, 'x-ratelimit-remaining');
    const retryAfter = headerNumber(response, 'retry-after');
    const reset = headerNumber(response, 'x-ratelimit-reset');
    const limitStatus = response.status === 403 || response.status === 429;
    if (retryAfter !== undefined && (limitStatus || limitedInBody)) {
      pool.bench(token, now() + retryAfter * 1000);
      return true;
    }
    if (limitedInBody || (limitStatus && remaining === 0)) {
      // A reset already past (clock skew) still means "limited now": pause a minute instead.
      const resetMs = reset === undefined ? 0 : reset * 1000;
      pool.bench(token, resetMs > now() ? resetMs : now() + SECONDARY_LIMIT_PAUSE_MS);
      return true;
    }
    if (response.status === 429) {
      pool.bench(token, now() + SECONDARY_LIMIT_PAUSE_MS);
      return true;
    }
    return false;
  }

  async function withRetries<T>(
    attempt: (token: string, signal: AbortSignal) => Promise<Attempt<T>>,
    callerDeadline: number,
    client: string | undefined,
  ) {
    // The budget runs on the monotonic clock: the injected `now` is wall time for rate-limit resets.
    const deadline = Math.min(performance.now() + budgetMs, callerDeadline);
    let failures = 0;
    let lastReason = 'no answer';
    for (;;) {
      const token = pool.pick();
      if (token === undefined) throw rateLimited(pool.secondsUntilAvailable());
      const wait = client === undefined ? null : (budget?.charge(client) ?? null);
      if (wait !== null) throw rateLimited(wait);
      const left = deadline - performance.now();
      if (left <= 0) throw upstreamDown(lastReason);
      const signal = AbortSignal.timeout(Math.ceil(left));
      let outcome: Attempt<T>;
      try {
        outcome = await attempt(token, signal);
      } catch (error) {
        if (error instanceof GitHubError) throw error;
        outcome = { retry: describeNetworkError(error), wait: -1 };
      }
      if ('done' in outcome) return outcome.done;
      lastReason = outcome.retry;
      if (outcome.wait !== 0) {
        failures += 1;
        const delay = BACKOFF_BASE_MS * 2 ** (failures - 1) * (0.75 + Math.random() / 2);
        if (performance.now() + delay >= deadline) throw upstreamDown(lastReason);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  function headersFor(token: string, accept: string): Record<string, string> {
    const headers: Record<string, string> = {
      accept,
      'user-agent': 'readme-cards',
      'x-github-api-version': '2022-11-28',
    };
    if (token !== '') headers.authorization = `bearer ${token}`;
    return headers;
  }

  const clientUntil = (callerDeadline: number, client?: string): GitHubClient => ({
    pool,
    bounded: (deadline, chargedTo) => clientUntil(Math.min(deadline, callerDeadline), chargedTo ?? client),
    graphql<T>(query: string, variables: Record<string, unknown>, subject: string) {
      return withRetries<T>(
        async (token, signal) => {
          const response = await doFetch(`${apiUrl}/graphql`, {
            method: 'POST',
            headers: { ...headersFor(token, 'application/json'), 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables }),
            signal,
          });
          pool.record(token, headerNumber(response, 'x-ratelimit-remaining'));
          if (response.status === 401) return rejectCredentials(token);
          const refusal = await refusedForRateLimit(response);
          const body = response.ok ? ((await response.json()) as GraphQLBody<T>) : await discard(response);
          const limited = refusal || (body?.errors?.some((error) => error.type === 'RATE_LIMITED') ?? false);
          if (benchIfLimited(token, response, limited)) return { retry: 'rate limited', wait: 0 };
          if (response.status >= 500) return { retry: `GraphQL HTTP ${response.status}`, wait: -1 };
          if (body === undefined) throw upstreamDown(`GraphQL HTTP ${response.status}`);
          if (body.errors?.some((error) => error.type === 'NOT_FOUND')) throw notFound(subject);
          if (body.data === undefined || body.data === null || (body.errors?.length ?? 0) > 0) {
            throw upstreamDown(body.errors?.[0]?.message ?? 'empty GraphQL answer');
          }
          return { done: body.data };
        },
        callerDeadline,
        client,
      );
    },
    rest<T>(path: string, restOptions: RestOptions) {
      return withRetries<RestResult<T>>(
        async (token, signal) => {
          const headers = headersFor(token, restOptions.accept ?? 'application/vnd.github+json');
          if (restOptions.etag !== undefined) headers['if-none-match'] = restOptions.etag;
          const response = await doFetch(`${apiUrl}${path}`, { headers, signal });
          pool.record(token, headerNumber(response, 'x-ratelimit-remaining'));
          if (response.status === 304) return { done: { status: 304 } };
          if (response.status === 401) return rejectCredentials(token);
          if (benchIfLimited(token, response, await refusedForRateLimit(response))) {
            return { retry: 'rate limited', wait: 0 };
          }
          if (response.status === 404) throw notFound(restOptions.subject);
          if (!response.ok) {
            await discard(response);
            if (response.status >= 500) return { retry: `REST HTTP ${response.status}`, wait: -1 };
            throw upstreamDown(`REST HTTP ${response.status}`);
          }
          const data = (await response.json()) as T;
          return { done: { status: 200, data, etag: response.headers.get('etag') ?? undefined } };
        },
        callerDeadline,
        client,
      );
    },
  });
  return clientUntil(Number.POSITIVE_INFINITY);

  function rejectCredentials(token: string): Attempt<never> {
    if (token === '') throw upstreamDown('GitHub requires a token: set GITHUB_TOKENS');
    pool.bench(token, now() + BAD_CREDENTIALS_PAUSE_MS);
    return { retry: 'bad credentials', wait: 0 };
  }
}

/**
 * True for a 403 whose message speaks of a rate limit: GitHub's secondary limits sometimes come
 * without `retry-after` or `x-ratelimit-remaining: 0`. Reads (consumes) the body of a 403 only.
 */
async function refusedForRateLimit(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  return /rate limit/i.test(await response.text());
}

/** Frees the connection of an answer whose body is not needed. */
async function discard(response: Response): Promise<undefined> {
  if (!response.bodyUsed) await response.body?.cancel();
  return undefined;
}

function headerNumber(response: Response, name: string): number | undefined {
  const value = response.headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'timed out';
  }
  return 'network error';
}
