/**
 * @module Lenient parameters for the drop-in URLs of other services: a value we cannot use is
 * ignored (the parameter takes its fallback), never a 400, because a URL that worked on the old
 * service must keep rendering. Every value is still bounded and checked before it is drawn.
 */
import type { CachePolicy } from '../http/cache-control.js';
import { customParam, type Param } from '../params/index.js';

/** Longest value (UTF-16 units) a lenient parameter reads by default; longer input is ignored whole. */
const defaultMaxLength = 400;

/**
 * A parameter that never fails: `read` returns the value or `undefined` for "cannot use",
 * which gives `fallback`. Values longer than `maxLength` are not read at all.
 */
export function lenient<Out>(
  description: string,
  read: (raw: string) => Out | undefined,
  fallback: Out,
  maxLength = defaultMaxLength,
): Param<Out> {
  return customParam<Out>(
    { kind: 'string', required: false, max: maxLength, description },
    (raw) => (raw.length > maxLength ? fallback : (read(raw.trim()) ?? fallback)),
    fallback,
  );
}

const truthy = new Set(['true', '1', 'yes', 'on']);
const falsy = new Set(['false', '0', 'no', 'off']);

/** `true`/`false` (also 1/0, yes/no, on/off, any case); anything else is ignored. */
export function readFlag(raw: string): boolean | undefined {
  const word = raw.toLowerCase();
  if (truthy.has(word)) return true;
  if (falsy.has(word)) return false;
  return undefined;
}

/** A lenient boolean; `null` fallback means "not given". */
export function lenientFlag(description: string, fallback: boolean): Param<boolean> {
  return lenient(description, readFlag, fallback);
}

const integerPattern = /^[+-]?\d{1,9}(\.\d{0,9})?$/;

/** A number clamped into `[min, max]` (as the old services clamp); not a number: ignored. */
export function readClamped(raw: string, min: number, max: number): number | undefined {
  if (!integerPattern.test(raw)) return undefined;
  return Math.min(max, Math.max(min, Math.round(Number(raw))));
}

/** A lenient whole number clamped into a range; `null` when not given or unusable. */
export function lenientNumber(description: string, min: number, max: number): Param<number | null> {
  return lenient<number | null>(description, (raw) => readClamped(raw, min, max), null);
}

/** A comma-separated list, trimmed, blanks dropped, at most `maxItems` kept. */
export function readList(raw: string, maxItems = 40, separator = ','): string[] {
  return raw
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean)
    .slice(0, maxItems);
}

/** A lenient list parameter (empty when not given). */
export function lenientList(description: string, maxItems = 40): Param<readonly string[]> {
  return lenient<readonly string[]>(description, (raw) => readList(raw, maxItems), []);
}

const hexPattern = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, the `#` optional (a raw `#` cannot be in a URL). */
export function readHexColor(raw: string): string | undefined {
  const match = hexPattern.exec(raw);
  return match ? `#${match[1]!.toLowerCase()}` : undefined;
}

/** A lenient hex colour; `null` when not given or not a hex colour. */
export function lenientColor(description: string): Param<string | null> {
  return lenient<string | null>(description, readHexColor, null);
}

/** Free text cut to `max` characters (code points); blank: not given. */
export function lenientText(description: string, max: number): Param<string | null> {
  return lenient<string | null>(
    description,
    (raw) => Array.from(raw).slice(0, max).join('') || undefined,
    null,
    // Room for `max` characters outside the Basic Multilingual Plane (two units each).
    Math.max(defaultMaxLength, 2 * max),
  );
}

/**
 * The cache policy of their `cache_seconds` / `cacheSeconds` (a clamped `lenientNumber`):
 * `seconds` fresh, stale-while-revalidate kept from `base`; not given: `undefined` (the base).
 */
export function cachePolicyFor(seconds: number | null, base: CachePolicy): CachePolicy | undefined {
  if (seconds === null || base.kind !== 'shared') return undefined;
  return { ...base, maxAgeSeconds: seconds };
}
