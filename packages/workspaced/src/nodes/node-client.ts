/**
 * @module Calls from this daemon to a paired node: only `<registered origin>/api/v1/<route>`,
 * redirects refused (a redirect could send the credential elsewhere), a 5 s timeout, answers up
 * to 1 MiB of JSON. Failures become 502 / 504 errors that say what went wrong on the node's side.
 */
import { ApiError } from '../http/api-error.js';

const timeoutMs = 5_000;
const maxAnswerBytes = 1024 * 1024;

interface NodeAnswer {
  status: number;
  body: unknown;
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxAnswerBytes || !response.body) {
    await response.body?.cancel();
    if (declared > maxAnswerBytes) throw tooLarge();
    return '';
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxAnswerBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = () =>
  new ApiError('NODE_ANSWER_TOO_LARGE', `the node answered more than ${maxAnswerBytes} bytes`);

export async function callNode(
  origin: string,
  route: string,
  init: { method: 'GET' | 'POST'; credential?: string; json?: unknown },
): Promise<NodeAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.credential) headers.authorization = `Bearer ${init.credential}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${origin}/api/v1${route}`, {
      method: init.method,
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new ApiError('NODE_TIMEOUT', `the node did not answer within ${timeoutMs} ms`);
    const reason =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : 'connection failed';
    throw new ApiError('NODE_UNREACHABLE', `the node cannot be reached: ${reason}`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new ApiError(
      'NODE_REDIRECT_REFUSED',
      'the node answered with a redirect; nodes are called only at their registered URL',
    );
  }
  let text: string;
  try {
    text = await readCapped(response);
  } catch (error) {
    if (signal.aborted) throw new ApiError('NODE_TIMEOUT', `the node did not answer within ${timeoutMs} ms`);
    throw error;
  }
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    throw new ApiError('NODE_BAD_ANSWER', 'the node did not answer JSON');
  }
  return { status: response.status, body };
}

/** The node's own error code, when it answered in the daemon's error format. */
export function remoteErrorCode(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string' ? error.code.slice(0, 64) : undefined;
}
