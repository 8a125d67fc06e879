/**
 * @module Reads a JSON request body within the size limit and validates it with a strict zod
 * schema: unknown fields, wrong types and malformed JSON are `REQUEST_INVALID` with every problem
 * listed by field path.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from './api-error.js';

interface FieldProblem {
  path: string;
  message: string;
}

function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: at ? `${at}.${key}` : key, message: 'unknown field' }));
    }
    return [{ path: at || '(body)', message: issue.message }];
  });
}

export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  maxBytes: number,
): Promise<z.output<Schema>> {
  const type = c.req.header('content-type') ?? '';
  if (!isJsonContentType(type)) {
    throw new ApiError('REQUEST_UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json');
  }
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBytes)
    throw new ApiError('REQUEST_TOO_LARGE', `the body must be at most ${maxBytes} bytes`);
  const bytes = await readAtMost(c.req.raw, maxBytes);
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError('REQUEST_INVALID', 'the body is not valid JSON');
  }
  return parseOrThrow(schema, raw, 'the body');
}

/** Issues about the shape (unknown or missing fields, wrong types) rather than about values. */
const shapeIssueCodes = new Set(['unrecognized_keys', 'invalid_type', 'invalid_union']);

/**
 * Validates `raw`: a wrong shape is `REQUEST_INVALID` (400), well-formed values that break a
 * rule (a range, a length) are `VALIDATION_FAILED` (422); either way every problem is listed.
 */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
  what: string,
): z.output<Schema> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const errors = fieldProblems(result.error);
  const shape = result.error.issues.some((issue) => shapeIssueCodes.has(issue.code));
  throw shape
    ? new ApiError('REQUEST_INVALID', `${what} does not have the expected fields`, { errors })
    : new ApiError('VALIDATION_FAILED', `${what} has invalid values`, { errors });
}

/** `application/json`, optionally with parameters (`; charset=utf-8`); compared without regexes. */
function isJsonContentType(value: string): boolean {
  const mediaType = value.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

/** Streams the body and stops as soon as it exceeds the limit (chunked bodies have no length). */
async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new ApiError('REQUEST_TOO_LARGE', `the body must be at most ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
