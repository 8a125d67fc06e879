/**
 * @module Turns an endpoint's parameter table into one zod object schema and parses a query
 * string with it, producing either typed values or the message of a 400 error card.
 */
import { z } from 'zod';
import type { Param } from './param.js';

// biome-ignore lint/suspicious/noExplicitAny: the table is generic over each parameter's output type
export type ParamTable = Record<string, Param<any>>;

/** The typed values an endpoint receives for its parameter table. */
export type ParamValues<Table extends ParamTable> = {
  [Name in keyof Table]: Table[Name] extends Param<infer Out> ? Out : never;
};

export type QueryParseResult<Table extends ParamTable> =
  | { ok: true; values: ParamValues<Table> }
  | { ok: false; message: string };

/** One zod object for the whole table; unknown parameters are ignored (stripped). */
export function querySchema<Table extends ParamTable>(table: Table): z.ZodType<ParamValues<Table>> {
  const shape = Object.fromEntries(Object.entries(table).map(([name, param]) => [name, param.schema]));
  return z.object(shape) as unknown as z.ZodType<ParamValues<Table>>;
}

/**
 * Parses the query with the schema. On failure the message names the first wrong parameter
 * and what it allows, e.g. `fontSize must be a whole number from 12 to 48 (got "99")`.
 */
export function parseQuery<Table extends ParamTable>(
  schema: z.ZodType<ParamValues<Table>>,
  query: Record<string, string>,
): QueryParseResult<Table> {
  const result = schema.safeParse(query);
  if (result.success) return { ok: true, values: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, message: `${String(issue.path[0] ?? 'query')} ${issue.message}` };
}
