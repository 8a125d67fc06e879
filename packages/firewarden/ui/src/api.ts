/**
 * The API client of the UI: same origin, JSON envelope in and out, the session cookie sent by the
 * browser and the session's CSRF token (from login or `/auth/me`, kept in memory only) on every
 * state-changing request (the transport is `@suite/web-ui`'s).
 */
import { createSessionClient, errorText, type JsonAnswer, NotJsonAnswer } from '@suite/web-ui';

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

const client = createSessionClient({ csrfHeader: 'x-firewarden-csrf' });
export const setCsrfToken = client.setCsrfToken;
export const whenSignedOut = client.whenSignedOut;

interface Envelope<T> {
  ok: boolean;
  data?: T;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  let answer: JsonAnswer;
  try {
    answer = await client.send(method, path, body);
  } catch (failure) {
    if (failure instanceof NotJsonAnswer) throw new ApiFailure(failure.status, 'BAD_ANSWER', failure.message);
    throw failure;
  }
  const envelope = (answer.body ?? {}) as Envelope<T>;
  if (envelope.ok) return envelope.data as T;
  const error = envelope.error ?? { code: 'UNKNOWN', message: 'unknown error' };
  throw new ApiFailure(answer.status, error.code, error.message, error.details);
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body);
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body);
export const remove = <T>(path: string, body?: unknown) => api<T>('DELETE', path, body);

/** A message for any error thrown by `api` (or the network). */
export function describeError(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.message} (${error.code})`;
  return errorText(error);
}
