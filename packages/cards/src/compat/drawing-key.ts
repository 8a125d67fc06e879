/**
 * @module Memo keys of drop-in cards: the drawing options of a parsed query as one string.
 */

const keys = new WeakMap<object, string>();

/**
 * The parsed query as a memo key (JSON; sets must be keyed by the caller). A parsed query is
 * kept and handed back for every request of the same URL, so the key is built once per URL,
 * not once per request.
 */
export function drawingKey(values: object): string {
  let key = keys.get(values);
  if (key === undefined) {
    key = JSON.stringify(values);
    keys.set(values, key);
  }
  return key;
}
