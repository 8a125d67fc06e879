/**
 * @module A copy of a response's headers with one more, made for every request the server
 * answers again.
 */

/**
 * `headers` plus `name: value`, as a new object. Not an object spread: V8 allocates the spread
 * of a long-lived object (the learnt headers of a cached answer) straight in the old
 * generation, so each answer left ~100 bytes of garbage there; under load that made a full
 * garbage collection every couple of seconds.
 */
export function headersWith<Value extends string | number>(
  headers: Readonly<Record<string, string>> | undefined,
  name: string,
  value: Value,
): Record<string, string | Value> {
  const copy: Record<string, string | Value> = Object.assign({}, headers);
  copy[name] = value;
  return copy;
}
