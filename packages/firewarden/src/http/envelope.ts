/**
 * @module The one JSON envelope of every answer:
 * `{ok: true, data, request_id}` or `{ok: false, error: {code, message, details?}, request_id}`,
 * with the request id also in the `X-Request-Id` header.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';

export const requestIdHeader = 'x-request-id';

const jsonType = 'application/json; charset=utf-8';

/**
 * Every envelope answer is made here, its headers (content type, request id, the security headers
 * `requestContext` chose) in one plain record: @hono/node-server writes such a record as it is,
 * where `c.body()` would copy it into a fetch `Headers` object and back, a tenth of the CPU time
 * of a small answer. Headers a handler set with `c.header()` (Set-Cookie at sign-in) are held by
 * Hono, so then Hono builds the answer and merges them.
 */
function answer(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer>,
  status: ContentfulStatusCode,
  extraHeaders?: Record<string, string>,
): Response {
  const headers: Record<string, string> = {
    'content-type': jsonType,
    [requestIdHeader]: c.get('requestId'),
    ...c.get('answerHeaders'),
    ...extraHeaders,
  };
  c.set('enveloped', true);
  if (c.get('handlerHeaders')) return c.body(body, status, headers);
  return new Response(body, { status, headers });
}

export function ok(c: Context<AppEnv>, data: unknown, status: ContentfulStatusCode = 200): Response {
  return answer(c, JSON.stringify({ ok: true, data, request_id: c.get('requestId') }), status);
}

/** `ok` for data already serialized to JSON (remembered views). */
export function okJson(c: Context<AppEnv>, dataJson: string): Response {
  return answer(c, `{"ok":true,"data":${dataJson},"request_id":${JSON.stringify(c.get('requestId'))}}`, 200);
}

/**
 * The start of an `ok` answer around data already serialized to JSON, encoded once: a cached
 * answer (an audit page is 24 KB) is then neither concatenated, measured nor encoded again per
 * request. Answer with `okFromPrefix`.
 */
export function okPrefix(dataJson: string): Buffer {
  return Buffer.from(`{"ok":true,"data":${dataJson},"request_id":`);
}

export function okFromPrefix(c: Context<AppEnv>, prefix: Buffer): Response {
  const end = Buffer.from(`${JSON.stringify(c.get('requestId'))}}`);
  return answer(c, Buffer.concat([prefix, end], prefix.length + end.length), 200);
}

function errorBody(requestId: string, error: ApiError): string {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  return JSON.stringify({ ok: false, error: body, request_id: requestId });
}

export function fail(c: Context<AppEnv>, error: ApiError): Response {
  return answer(c, errorBody(c.get('requestId'), error), error.status as ContentfulStatusCode, error.headers);
}
