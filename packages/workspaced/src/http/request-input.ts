/**
 * @module Reads request input through zod: JSON bodies (only `application/json`, so a cross-site
 * form or `text/plain` post can never reach a handler without a CORS preflight), query strings
 * and numeric path ids. Every failure is a 4xx JSON error.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from './api-error.js';

export function validationError(error: z.ZodError, where: string): ApiError {
  return new ApiError('VALIDATION_FAILED', `invalid ${where}`, {
    issues: error.issues
      .slice(0, 20)
      .map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  });
}

export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  const mediaType = type.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json')
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
  let value: unknown;
  try {
    value = JSON.parse(await c.req.text());
  } catch {
    throw new ApiError('INVALID_JSON', 'the body is not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, 'body');
  return parsed.data;
}

export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

/** Ids are positive integers written in decimal (at most 15 digits); anything else is undefined. */
export function parseId(text: string): number | undefined {
  if (text.length === 0 || text.length > 15) return undefined;
  for (const char of text) if (char < '0' || char > '9') return undefined;
  const id = Number(text);
  return id >= 1 ? id : undefined;
}

/** A path id; anything but a positive decimal integer names no resource. */
export function readId(c: Context, name = 'id'): number {
  const id = parseId(c.req.param(name) ?? '');
  if (id === undefined) throw new ApiError('NOT_FOUND', 'no such resource');
  return id;
}
