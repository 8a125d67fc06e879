/**
 * @module A request the way an integration sends it: a platform token in `Authorization: Bearer`
 * and nothing else (no cookie, no CSRF header).
 */
import type { ApiAnswer, RunningDaemon } from './daemon.js';

export async function bearerRequest(
  daemon: RunningDaemon,
  secret: string,
  method: string,
  route: string,
  json?: unknown,
): Promise<Omit<ApiAnswer, 'headers'>> {
  const response = await fetch(`${daemon.url}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}
