/**
 * @module Query-parameter builders: one zod schema per parameter plus the facts the README,
 * the gallery builder and the error cards show (type, range, allowed values, default).
 */
import { z } from 'zod';
import { stripForbiddenXmlChars } from '../svg/escape.js';

export type ParamKind = 'string' | 'number' | 'boolean' | 'enum';

/** What a parameter accepts, in words and facts a person can act on. */
export interface ParamDoc {
  kind: ParamKind;
  required: boolean;
  /** Default shown to users (as it would be written in the query string). */
  default?: string;
  min?: number;
  max?: number;
  values?: readonly string[];
  /** One line: what the parameter does. */
  description: string;
}

/** A query parameter: its zod schema (query-string text in, typed value out) and its doc. */
export interface Param<Out> {
  schema: z.ZodType<Out, string | undefined>;
  doc: ParamDoc;
}

/**
 * A query value that is absent, empty or only whitespace counts as "not given" (form builders
 * send `x=`), so it takes the default or, when required, is reported missing.
 */
function given(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== '';
}

/** Echoes user input in an error message, shortened so an error card stays small. */
export function shown(raw: string): string {
  const chars = Array.from(raw);
  return chars.length > 32 ? `"${chars.slice(0, 32).join('')}…"` : `"${raw}"`;
}

/**
 * Builds a parameter from a parse function that returns the value or `{ error }` (the
 * message completes "<name> ..."). Without `fallback` the parameter is required.
 *
 * @example customParam({ kind: 'string', required: true, description: 'owner/name' },
 *   (raw) => /^[\w.-]+\/[\w.-]+$/.test(raw) ? raw : { error: 'must look like owner/name' })
 */
export function customParam<Out>(
  doc: ParamDoc,
  parse: (raw: string) => Out | { error: string },
  fallback?: Out,
): Param<Out> {
  const schema = z
    .string()
    .optional()
    // Characters XML cannot carry can never be drawn: they are removed before anything else.
    .transform((value) => (value === undefined ? undefined : stripForbiddenXmlChars(value)))
    .transform((raw, ctx): Out => {
      if (!given(raw)) {
        if (fallback !== undefined) return fallback;
        ctx.addIssue({ code: 'custom', message: `is required (${describeAllowed(doc)})` });
        return z.NEVER;
      }
      const parsed = parse(raw);
      if (parsed !== null && typeof parsed === 'object' && 'error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    });
  return { schema, doc };
}

/** "a number from 12 to 48", "one of: a, b", ... used in error cards and docs. */
export function describeAllowed(doc: ParamDoc): string {
  switch (doc.kind) {
    case 'number':
      return `a number from ${doc.min} to ${doc.max}`;
    case 'boolean':
      return 'true, false, 1 or 0';
    case 'enum':
      return `one of: ${doc.values?.join(', ')}`;
    case 'string':
      return `text of 1 to ${doc.max} characters`;
  }
}

interface TextOptions {
  description: string;
  /** Maximum length in characters (code points). */
  max: number;
  default?: string;
}

/** Optional free text with a default; length counted in characters, not UTF-16 units. */
export function text(options: TextOptions & { default: string }): Param<string> {
  const doc: ParamDoc = { kind: 'string', required: false, ...options };
  return customParam(doc, (raw) => checkLength(raw, doc), options.default);
}

/** Required free text (400 when missing or empty). */
export function requiredText(options: Omit<TextOptions, 'default'>): Param<string> {
  const doc: ParamDoc = { kind: 'string', required: true, ...options };
  return customParam(doc, (raw) => checkLength(raw, doc));
}

function checkLength(raw: string, doc: ParamDoc): string | { error: string } {
  let length = 0;
  for (const _ of raw) length++;
  return length > doc.max! ? { error: `must be at most ${doc.max} characters (got ${length})` } : raw;
}

interface NumberOptions {
  description: string;
  min: number;
  max: number;
  default: number;
  /** Accept fractions (durations); default false (whole numbers only). */
  fractional?: boolean;
}

const decimalNumber = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A number within an inclusive range, written in plain decimal notation. */
export function number(options: NumberOptions): Param<number> {
  const doc: ParamDoc = {
    kind: 'number',
    required: false,
    min: options.min,
    max: options.max,
    default: String(options.default),
    description: options.description,
  };
  const allowed = `must be ${options.fractional ? 'a number' : 'a whole number'} from ${options.min} to ${options.max}`;
  return customParam(
    doc,
    (raw) => {
      const value = decimalNumber.test(raw.trim()) ? Number(raw) : Number.NaN;
      if (!Number.isFinite(value) || (!options.fractional && !Number.isInteger(value))) {
        return { error: `${allowed} (got ${shown(raw)})` };
      }
      if (value < options.min || value > options.max) return { error: `${allowed} (got ${shown(raw)})` };
      return value;
    },
    options.default,
  );
}

const truthy = new Set(['true', '1']);
const falsy = new Set(['false', '0']);

/** A boolean written as true/false/1/0 (case-insensitive). */
export function flag(options: { description: string; default: boolean }): Param<boolean> {
  const doc: ParamDoc = {
    kind: 'boolean',
    required: false,
    default: String(options.default),
    description: options.description,
  };
  return customParam(
    doc,
    (raw) => {
      const word = raw.toLowerCase();
      if (truthy.has(word)) return true;
      if (falsy.has(word)) return false;
      return { error: `must be true, false, 1 or 0 (got ${shown(raw)})` };
    },
    options.default,
  );
}

/** One value from a fixed set (exact, case-sensitive, as the spec lists them). */
export function oneOf<const Values extends readonly [string, ...string[]]>(
  values: Values,
  options: { description: string; default: Values[number] },
): Param<Values[number]> {
  const doc: ParamDoc = {
    kind: 'enum',
    required: false,
    values,
    default: options.default,
    description: options.description,
  };
  const allowed = new Set<string>(values);
  return customParam(
    doc,
    (raw) =>
      allowed.has(raw)
        ? (raw as Values[number])
        : { error: `must be one of: ${values.join(', ')} (got ${shown(raw)})` },
    options.default,
  );
}

/**
 * Splits a list parameter on `separator`, trimming items and dropping blank ones; fails when
 * the list is empty or longer than `maxItems`.
 */
export function splitList(
  raw: string,
  separator: string,
  maxItems: number,
  itemName: string,
): string[] | { error: string } {
  const items = raw
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) return { error: `must contain at least one ${itemName}` };
  if (items.length > maxItems)
    return { error: `must contain at most ${maxItems} ${itemName}s (got ${items.length})` };
  return items;
}
