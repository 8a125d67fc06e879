/**
 * @module Outbound HTTP: injected fetch, per-attempt timeout, retries on network errors and 5xx,
 * and the one short-429 retry rule shared by posting and reading.
 */
import { BotlistsError } from '../errors.js';
import type { FetchLike, FetchOptions } from '../types.js';
import { parseRetryAfter } from './retry-after.js';

/** Library defaults (spec §8: timeout 10 s, 2 retries). */
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 2;
const DEFAULT_RETRY_DELAY_MS = 1500;
/** A 429 is retried once only when the list asks for 30 s or less (never top.gg's one-hour block). */
export const MAX_RETRY_AFTER_SECONDS = 30;
export const USER_AGENT = 'botlists/2.0.0 (+https://www.npmjs.com/package/botlists)';

interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  retryAfter: number | null;
  /** True when the answer came after one wait on a short 429. */
  retried: boolean;
}

export interface HttpRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  listId?: string;
  /** Aggregator mode: one attempt, no 5xx retry, no 429 retry. */
  noRetry?: boolean;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolved options; `fetch` is looked up at call time so a late global polyfill still works. */
export class HttpClient {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly userAgent: string;
  private readonly fetchImpl: FetchLike | undefined;

  constructor(options: FetchOptions = {}) {
    this.fetchImpl = options.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = Math.max(0, options.retries ?? DEFAULT_RETRIES);
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.userAgent = options.userAgent ?? USER_AGENT;
  }

  get fetch(): FetchLike {
    return this.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends a request; resolves with any HTTP answer (the caller judges the status), rejects only without one. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const retries = request.noRetry ? 0 : this.retries;
    let retried429 = false;
    let failures = 0;
    for (;;) {
      let response: HttpResponse;
      try {
        response = await this.attempt(request);
      } catch (error) {
        if (failures >= retries) {
          throw new BotlistsError(`${request.method ?? 'GET'} ${request.url} failed: ${describe(error)}`, {
            listId: request.listId ?? null,
            cause: error,
          });
        }
        failures++;
        await sleep(this.retryDelayMs * failures);
        continue;
      }
      if (response.status === 429 && !request.noRetry && !retried429) {
        const wait = response.retryAfter;
        if (wait !== null && wait <= MAX_RETRY_AFTER_SECONDS) {
          retried429 = true;
          await sleep(wait * 1000);
          continue;
        }
      }
      if (response.status >= 500 && failures < retries) {
        failures++;
        await sleep(this.retryDelayMs * failures);
        continue;
      }
      return { ...response, retried: retried429 };
    }
  }

  private async attempt(request: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`timeout after ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    try {
      const init: RequestInit = {
        method: request.method ?? 'GET',
        headers: { 'user-agent': this.userAgent, ...request.headers },
        signal: controller.signal,
      };
      if (request.body !== undefined) init.body = request.body;
      const res = await this.fetch(request.url, init);
      const body = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        body,
        retryAfter: parseRetryAfter(res.headers, body),
        retried: false,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

/** A failed answer as a BotlistsError with the list's own message (truncated) and Retry-After. */
export function errorFromResponse(
  response: HttpResponse,
  listId: string | null,
  what: string,
): BotlistsError {
  return new BotlistsError(`${what}: HTTP ${response.status} ${response.body.slice(0, 200)}`.trim(), {
    listId,
    status: response.status,
    retryAfter: response.retryAfter,
    body: response.body,
  });
}

/**
 * The parsed body of a 2xx answer. Any other status is `errorFromResponse`; a body that is not
 * JSON is a BotlistsError `<what>: invalid JSON` carrying the start of the body.
 */
export function jsonFromResponse(response: HttpResponse, listId: string, what: string): unknown {
  if (response.status < 200 || response.status >= 300) throw errorFromResponse(response, listId, what);
  try {
    return JSON.parse(response.body);
  } catch {
    throw new BotlistsError(`${what}: invalid JSON`, {
      listId,
      status: response.status,
      body: response.body.slice(0, 200),
    });
  }
}
