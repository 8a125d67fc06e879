/**
 * @module Slash trimming without regular expressions: `/\/+$/` backtracks quadratically on a long
 * run of slashes followed by another character, and list ids and base URLs come from outside.
 */

const SLASH = 0x2f;

/** `a/b///` → `a/b`; linear in the length of the text. */
export function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SLASH) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `//a/b//` → `a/b`. */
export function trimSlashes(text: string): string {
  let start = 0;
  const trimmed = trimTrailingSlashes(text);
  while (start < trimmed.length && trimmed.charCodeAt(start) === SLASH) start++;
  return trimmed.slice(start);
}
