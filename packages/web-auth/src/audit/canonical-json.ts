/**
 * @module Canonical JSON for hashing: object keys sorted by code unit, no whitespace, `undefined`
 * members dropped (as JSON.stringify does). Equal values always give equal bytes.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`not JSON-serialisable: ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

/**
 * Canonical JSON of plain JSON (toJSON applied) of at most `maxLength` characters, whatever the
 * value: one that is too large or cannot be serialised (a cycle, a BigInt) is replaced by a note
 * saying so (`{truncated: true, length}` or `{unserialisable: true}`), so what it describes is
 * always recorded.
 */
export function boundedCanonicalJson(value: unknown, maxLength: number): string {
  let text: string;
  try {
    text = canonicalJson(JSON.parse(JSON.stringify(value ?? {})));
  } catch {
    return canonicalJson({ unserialisable: true });
  }
  return text.length <= maxLength ? text : canonicalJson({ truncated: true, length: text.length });
}
