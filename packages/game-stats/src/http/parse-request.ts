/**
 * @module Runs a zod schema over a request's query or path argument and turns failure into the
 * spec's 400 body.
 */
import type { z } from 'zod';
import { describeIssue } from './query-params.js';

export class BadRequest extends Error {}
/** Something the request names does not exist: the spec's 404 body. */
export class NotFound extends Error {}

export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  where: string,
): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw new BadRequest(describeIssue(result.error, where));
  return result.data;
}

/** Effective page size: the default when absent, clamped to the maximum. */
export function effectiveLimit(
  limit: number | undefined,
  pagination: { 'default-limit': number; 'max-limit': number },
) {
  return Math.min(limit ?? pagination['default-limit'], pagination['max-limit']);
}
