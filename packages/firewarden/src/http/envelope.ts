/**
 * @module The one JSON envelope of every answer:
 * `{ok: true, data, request_id}` or `{ok: false, error: {code, message, details?}, request_id}`,
 * with the request id also in the `X-Request-Id` header.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';

export const requestIdHeader = 'X-Request-Id';

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

export function ok(c: Context<AppEnv>, data: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify({ ok: true, data, request_id: c.get('requestId') }), status, jsonHeaders);
}

/** `ok` for data already serialized to JSON (cached answers). */
export function okJson(c: Context<AppEnv>, dataJson: string): Response {
  return c.body(
    `{"ok":true,"data":${dataJson},"request_id":${JSON.stringify(c.get('requestId'))}}`,
    200,
    jsonHeaders,
  );
}

export function errorBody(requestId: string, error: ApiError): string {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  return JSON.stringify({ ok: false, error: body, request_id: requestId });
}

export function fail(c: Context<AppEnv>, error: ApiError): Response {
  return c.body(errorBody(c.get('requestId'), error), error.status as ContentfulStatusCode, {
    ...jsonHeaders,
    ...error.headers,
  });
}
