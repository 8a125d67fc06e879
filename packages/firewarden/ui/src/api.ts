/**
 * The API client of the UI: same origin, JSON envelope in and out, the session cookie sent by the
 * browser and the session's CSRF token (from login or `/auth/me`, kept in memory only) on every
 * state-changing request.
 */

export interface FieldError {
  path: string;
  code?: string;
  message: string;
}

/** A failed answer: the envelope's code, message and details. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get fieldErrors(): FieldError[] {
    const errors = this.details.errors;
    return Array.isArray(errors) ? (errors as FieldError[]) : [];
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
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-firewarden-csrf'] = csrfToken;
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let envelope: {
    ok: boolean;
    data?: T;
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
  try {
    envelope = await response.json();
  } catch {
    throw new ApiFailure(
      response.status,
      'BAD_ANSWER',
      `the server answered ${response.status} without JSON`,
    );
  }
  if (envelope.ok) return envelope.data as T;
  const error = envelope.error ?? { code: 'UNKNOWN', message: 'unknown error' };
  if (error.code === 'AUTH_REQUIRED') onSignedOut();
  throw new ApiFailure(response.status, error.code, error.message, error.details);
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body);

/** A message for any error thrown by `api` (or the network). */
export function describeError(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
