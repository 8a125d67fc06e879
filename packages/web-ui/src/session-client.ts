/**
 * The transport both UIs use: same origin, JSON in and out, the session cookie sent by the
 * browser and the session's CSRF token (kept in memory only, never in storage) on every
 * state-changing request. Each product reads its own answer shape from what `send` returns; the
 * one answer both servers word alike, 401 `{error: {code: 'AUTH_REQUIRED'}}` (the session is
 * gone), is recognised here and reported to `whenSignedOut`.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What came back: the status and the parsed JSON body (`null` for an empty one). */
export interface JsonAnswer {
  status: number;
  ok: boolean;
  body: unknown;
}

/** The answer was not JSON (a proxy's error page, a cut connection). */
export class NotJsonAnswer extends Error {
  constructor(readonly status: number) {
    super(`the server answered ${status} without JSON`);
  }
}

export interface SessionClientOptions {
  /** The header the server reads the CSRF token from, e.g. `x-workspaced-csrf`. */
  csrfHeader: string;
  /** Prefix of every API path. */
  basePath?: string;
  /** The fetch to use (tests); the browser's by default. */
  fetch?: typeof fetch;
  /** Origin to resolve paths against (tests outside a page); none in the browser. */
  origin?: string;
}

export interface SessionClient {
  setCsrfToken(token: string | null): void;
  /** Called when an answer says the session is gone (401 `AUTH_REQUIRED`). */
  whenSignedOut(callback: () => void): void;
  send(method: Method, path: string, body?: unknown): Promise<JsonAnswer>;
}

export function createSessionClient(options: SessionClientOptions): SessionClient {
  const basePath = options.basePath ?? '/api/v1';
  let csrfToken: string | null = null;
  let onSignedOut: () => void = () => {};
  return {
    setCsrfToken(token) {
      csrfToken = token;
    },
    whenSignedOut(callback) {
      onSignedOut = callback;
    },
    async send(method, path, body) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (method !== 'GET' && csrfToken !== null) headers[options.csrfHeader] = csrfToken;
      const doFetch = options.fetch ?? fetch;
      const response = await doFetch(`${options.origin ?? ''}${basePath}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        throw new NotJsonAnswer(response.status);
      }
      const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
      if (response.status === 401 && code === 'AUTH_REQUIRED') onSignedOut();
      return { status: response.status, ok: response.ok, body: parsed };
    },
  };
}
