/**
 * @module The bridge between the card engine and the GitHub data layer: one data service per
 * app (built from its settings, cache, clock and logger), and GitHub failures turned into
 * error cards (404, 429 with Retry-After, 502).
 */
import { z } from 'zod';
import { CardError } from '../http/card-error.js';
import type { CardServices } from '../http/services.js';
import { storeInCardCache } from './cache-store.js';
import { createGitHubData, type GitHubData } from './data.js';
import { GitHubError } from './errors.js';

/** Keyed by the app's GitHub settings: requests get their own services object (with `client`), the app one data service. */
const dataBySettings = new WeakMap<CardServices['github'], GitHubData>();

/**
 * Time for all the upstream calls of one card, retries included: with drawing and the network
 * on top, every answer stays under 3 s (GitHub's image proxy gives up at about 4 s).
 */
const REQUEST_BUDGET_MS = 2_500;

/**
 * The GitHub data service of an app for one request: its calls share `REQUEST_BUDGET_MS` and are
 * charged to the request's client.
 */
export function gitHubDataFor(services: CardServices): GitHubData {
  return appGitHubData(services).until(performance.now() + REQUEST_BUDGET_MS, services.client);
}

/** The GitHub data service of an app, created on first use. */
function appGitHubData(services: CardServices): GitHubData {
  let data = dataBySettings.get(services.github);
  if (data === undefined) {
    const report = (message: string, error: unknown) => services.logger?.warn({ err: error }, message);
    data = createGitHubData({
      apiUrl: services.github.apiUrl,
      tokens: services.github.tokens,
      callsPerClientPerMinute: services.github.callsPerClientPerMinute,
      fetch: services.github.fetch,
      store: storeInCardCache(services.cache, (error) => report('GitHub cache unavailable', error)),
      now: () => services.now().getTime(),
      onError: report,
    });
    dataBySettings.set(services.github, data);
  }
  return data;
}

/** Awaits GitHub data, turning a GitHub failure into the matching error card. */
export async function forCard<T>(loading: Promise<T>): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    if (error instanceof GitHubError) {
      const status = error.kind === 'not-found' ? 404 : error.kind === 'rate-limited' ? 429 : 502;
      throw new CardError(status, error.message, {
        retryAfterSeconds: error.retryAfterSeconds,
        cause: error,
      });
    }
    // Every GitHub answer is parsed with a schema: one that does not fit is GitHub's failure.
    if (error instanceof z.ZodError) {
      throw new CardError(502, 'GitHub sent an answer in an unexpected shape', { cause: error });
    }
    throw error;
  }
}
