/**
 * The UI's API client: same origin, JSON in and out, the session cookie sent by the browser and
 * the session's CSRF token (from setup, login or `/me`, kept in memory only) on every mutation;
 * the transport is `@suite/web-ui`'s.
 */
import { createSessionClient, type JsonAnswer, type Method, NotJsonAnswer } from '@suite/web-ui';

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

const client = createSessionClient({ csrfHeader: 'x-workspaced-csrf' });
export const setCsrfToken = client.setCsrfToken;
export const whenSignedOut = client.whenSignedOut;

export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  let answer: JsonAnswer;
  try {
    answer = await client.send(method, path, body);
  } catch (failure) {
    if (failure instanceof NotJsonAnswer) throw new ApiFailure(failure.status, 'BAD_ANSWER', failure.message);
    throw failure;
  }
  if (!answer.ok) {
    const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error ?? {};
    throw new ApiFailure(
      answer.status,
      error.code ?? 'UNKNOWN',
      error.message ?? `request failed (${answer.status})`,
      error as Record<string, unknown>,
    );
  }
  return answer.body as T;
}

/** A query string from defined values only. */
export function query(values: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
