/**
 * @module Reading loosely shaped JSON: dotted paths and first-present-field-wins priority lists.
 */

/** Value at a dotted path (`stats.server_count`), or undefined. */
export function getPath(value: unknown, path: string): unknown {
  // Most paths are one key: skip the split (this runs for every field of every webhook).
  if (!path.includes('.')) {
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[path] : undefined;
  }
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** First path whose value is neither undefined, null nor an empty string. */
export function pick(value: unknown, paths: readonly (string | null | undefined)[]): unknown {
  for (const path of paths) {
    if (!path) continue;
    const found = getPath(value, path);
    if (found !== undefined && found !== null && found !== '') return found;
  }
  return undefined;
}

/**
 * First path whose value converts (the converter returns non-null): `votes` may be a number on one
 * list and an object `{total, monthly}` on another, and the next path must then be tried.
 */
export function pickAs<T>(
  value: unknown,
  paths: readonly (string | null | undefined)[],
  convert: (v: unknown) => T | null,
): T | null {
  for (const path of paths) {
    if (!path) continue;
    const converted = convert(getPath(value, path));
    if (converted !== null) return converted;
  }
  return null;
}

/** A finite number (numeric strings accepted) or null. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A string id: strings as is, numbers and bigints stringified, objects by their `id`. */
export function asId(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value && typeof value === 'object' && 'id' in value) return asId((value as { id: unknown }).id);
  return null;
}

export function asString(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (typeof value === 'number') return String(value);
  return null;
}

/** true / false, also from 1 / 0 and "true" / "false"; null otherwise. */
export function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return null;
}

export function asStringArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(asId).filter((v): v is string => v !== null);
  const single = asId(value);
  return single ? [single] : [];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
