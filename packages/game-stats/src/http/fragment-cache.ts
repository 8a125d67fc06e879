/**
 * @module Cached serialised answers: a page of a leaderboard or a player record is stringified
 * once per index/presence generation, and each request only appends fresh `metadata`. When no
 * request-dependent check runs (no API key, allow-list, rate limit or compression), answers are
 * also found by their exact request target, so a repeated request skips routing and parsing.
 */
import { elapsedMs } from './api-context.js';
import { headersWith } from './headers-with.js';

/** One serialised answer of one generation. */
class CachedAnswer {
  /** Headers of the full answer, learnt from the first one the app produced. */
  headers: Record<string, string> | undefined;
  private readonly opening: string;

  /**
   * @param head the body's JSON without its closing brace
   * @param metadataRest the metadata fields after `generated_at` and `execution_time_ms`
   */
  constructor(
    readonly generation: string,
    head: string,
    private readonly metadataRest: string,
  ) {
    this.opening = `${head}${head.length > 1 ? ',' : ''}"metadata":{"generated_at":"`;
  }

  /** The JSON text, with metadata timed from `started` (performance.now()) as its last key. */
  render(started: number): string {
    return `${this.opening}${new Date().toISOString()}","execution_time_ms":${elapsedMs(started)}${this.metadataRest}}}`;
  }
}

/**
 * An answer computed afresh every time (health: timestamps, memory, requests in flight), served
 * again without the framework but never stale: only its headers are learnt once.
 */
export class LiveAnswer {
  headers: Record<string, string> | undefined;
  constructor(private readonly compute: () => string) {}

  render(): string {
    return this.compute();
  }
}

/** What the shortcut serves again. */
type ServedAgain = CachedAnswer | LiveAnswer;

/** Bodies kept at once per route; the oldest is dropped first. */
const defaultCapacity = 2_000;

export class FragmentCache {
  private readonly answers = new Map<string, CachedAnswer>();

  constructor(private readonly capacity = defaultCapacity) {}

  /**
   * The answer for `key` in `generation`; `body` (a plain object) is built only on a miss.
   * `metadata` holds the fields that follow `generated_at` and `execution_time_ms`.
   */
  answer(key: string, generation: string, body: () => object, metadata: object = {}): CachedAnswer {
    let answer = this.answers.get(key);
    if (answer?.generation !== generation) {
      const rest = JSON.stringify(metadata).slice(1, -1);
      answer = new CachedAnswer(
        generation,
        JSON.stringify(body()).slice(0, -1),
        rest === '' ? '' : `,${rest}`,
      );
      this.answers.delete(key);
      this.answers.set(key, answer);
      if (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value!);
    }
    return answer;
  }
}

/** Longer request targets are never cached (a client cannot fill memory with long URLs). */
const maxTargetLength = 512;
const defaultTargets = 1_000;

/** Answers by exact request target (path and query string as sent). */
export class AnswersByTarget {
  private readonly answers = new Map<string, ServedAgain>();

  constructor(private readonly capacity = defaultTargets) {}

  remember(target: string, answer: ServedAgain): void {
    if (target.length > maxTargetLength) return;
    this.answers.delete(target);
    this.answers.set(target, answer);
    if (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value!);
  }

  /** The answer to serve again, when it is of `generation` (or live) and its headers are known. */
  lookup(target: string, generation: string): ServedAgain | undefined {
    const answer = this.answers.get(target);
    if (!answer?.headers) return undefined;
    return answer instanceof LiveAnswer || answer.generation === generation ? answer : undefined;
  }

  /** Learns the headers of a full answer the app just gave for `target`. */
  learnHeaders(target: string, response: Response): void {
    const answer = this.answers.get(target);
    if (!answer || answer.headers || response.status !== 200) return;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') headers[name] = value;
    });
    answer.headers = headers;
  }
}

/** The request target as sent (`/api/players?limit=5`); the whole URL off Node. */
export function requestTarget(request: Request, env: unknown): string {
  return (env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? request.url;
}

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * Wraps the app's fetch: a GET whose exact target was answered in the current generation gets
 * that answer again with fresh metadata, without routing or parsing; anything else goes to the
 * app. Only for set-ups where every GET passes the request gate unchanged.
 */
export function answerShortcut(fetch: Fetch, answers: AnswersByTarget, generation: () => string): Fetch {
  return (request, env) => {
    if (request.method !== 'GET') return fetch(request, env);
    const started = performance.now();
    const target = requestTarget(request, env);
    const answer = answers.lookup(target, generation());
    if (answer) {
      const body = answer.render(started);
      // A fresh object each time: the Node adapter adds to the headers it is given.
      const headers = headersWith(answer.headers, 'content-length', String(Buffer.byteLength(body)));
      return new Response(body, { status: 200, headers });
    }
    return Promise.resolve(fetch(request, env)).then((response) => {
      answers.learnHeaders(target, response);
      return response;
    });
  };
}
