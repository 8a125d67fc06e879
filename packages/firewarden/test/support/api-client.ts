/**
 * @module An HTTP client for the API the way a browser uses it: one session cookie, the CSRF
 * token from the login answer sent back in `X-Firewarden-CSRF` on state-changing requests.
 */

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text instead of JSON (malformed JSON, wrong types). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Leave out the CSRF header even when signed in. */
  withoutCsrf?: boolean;
}

export class ApiClient {
  cookie: string | null = null;
  csrf: string | null = null;

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && !options.withoutCsrf && method !== 'GET') headers['X-Firewarden-CSRF'] = this.csrf;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the assertion to show
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('POST', path, { ...options, body });
  }

  put(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('PUT', path, { ...options, body });
  }

  async login(username: string, password: string): Promise<ApiAnswer> {
    const answer = await this.post('/api/v1/auth/login', { username, password });
    const setCookie = answer.headers.get('set-cookie');
    if (answer.status === 200 && setCookie) {
      this.cookie = setCookie.split(';', 1)[0]!;
      this.csrf = answer.body.data.csrf_token;
    }
    return answer;
  }
}
