/**
 * The UI's API client: same origin, JSON in and out, the session cookie sent by the browser and
 * the session's CSRF token (from setup, login or `/me`, kept in memory only) on every mutation.
 */

/** A refused request: the daemon's `{error: {code, message, ...}}` body. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when an answer says the session is gone (401 `AUTH_REQUIRED`). */
export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-workspaced-csrf'] = csrfToken;
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    throw new ApiFailure(
      response.status,
      'BAD_ANSWER',
      `the daemon answered ${response.status} without JSON`,
    );
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error ?? {};
    if (response.status === 401 && error.code === 'AUTH_REQUIRED') onSignedOut();
    throw new ApiFailure(
      response.status,
      error.code ?? 'UNKNOWN',
      error.message ?? `request failed (${response.status})`,
      error as Record<string, unknown>,
    );
  }
  return parsed as T;
}

/** A query string from defined values only. */
export function query(values: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The message to show for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
