/**
 * @module What endpoints may use besides their parameters: stores, caches, upstream settings
 * and a clock, all injected through `createApp(options)` so tests and edge runtimes choose them.
 */
import type { LogoCatalogue } from '../compat/simple-icons-logos.js';
import type { CardCache } from '../store/card-cache.js';
import type { VisitorStore } from '../store/visitor-store.js';
import type { ClientOf } from './client-address.js';

/** How GitHub-backed endpoints reach GitHub. */
export interface GithubSettings {
  /** Token pool (`GITHUB_TOKENS`, comma-separated, or `GITHUB_TOKEN`); may be empty. */
  tokens: readonly string[];
  /** REST base URL, default `https://api.github.com`; GraphQL is `${apiUrl}/graphql`. */
  apiUrl: string;
  /** The fetch implementation (tests pass one that targets a fake on loopback). */
  fetch: typeof fetch;
  /** GitHub calls one client may cause per minute (cold cards); beyond it a 429 card. Default 120. */
  callsPerClientPerMinute: number;
}

/** Minimal structured logger (pino satisfies it). */
export interface CardLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface CardServices {
  visitors: VisitorStore;
  cache: CardCache;
  github: GithubSettings;
  /** Current time; injected so tests control dates. */
  now: () => Date;
  logger: CardLogger | undefined;
  /** Who a request comes from (per-client bounds). */
  clientOf: ClientOf;
  /** simple-icons logos beyond the shipped ones (shields' `logo=`), when the runtime has them. */
  logos: LogoCatalogue | undefined;
  /** The client of the current request, when known: set per request by the pipeline. */
  client?: string | undefined;
}
