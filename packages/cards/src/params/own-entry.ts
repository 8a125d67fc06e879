/**
 * @module Table lookups by a key from a query string. A plain object literal answers
 * `__proto__`, `constructor` or `toString` with Object's own members, so every lookup of a
 * user-given key in such a table goes through here.
 */

/** `table[key]` when the table itself holds `key`, else undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
