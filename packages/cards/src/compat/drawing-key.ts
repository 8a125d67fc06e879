/**
 * @module Memo keys of drop-in cards: one short key per parsed query.
 */

const keys = new WeakMap<object, string>();
let issued = 0;

/**
 * A short key naming the drawing options of a parsed query. The pipeline keeps a parsed query
 * per URL and hands the same values object to every request of that URL, so each URL gets one
 * key for its lifetime (the same options under two URLs are drawn once for each).
 */
export function drawingKey(values: object): string {
  let key = keys.get(values);
  if (key === undefined) {
    issued += 1;
    key = `q${issued}`;
    keys.set(values, key);
  }
  return key;
}
