/**
 * @module Rendered SVGs kept per fetched data object. The in-process cache hands back the same
 * object until the data is refreshed, so a card with the same parameters is drawn once per
 * refresh; fresh data is a new object, which starts a new memo (the old one is collected).
 */

const memo = new WeakMap<object, Map<string, string>>();
/** Parameter variants kept per data object (themes, options). */
const MAX_VARIANTS = 64;

/**
 * The SVG drawn by `render` for `data` and the parameters summarised in `key`.
 *
 * @example renderOnce(stats, `${theme}|${showIcons}`, () => renderStats(...))
 */
export function renderOnce(data: object, key: string, render: () => string): string {
  let variants = memo.get(data);
  if (variants === undefined) {
    variants = new Map();
    memo.set(data, variants);
  }
  const known = variants.get(key);
  if (known !== undefined) return known;
  const svg = render();
  if (variants.size >= MAX_VARIANTS) variants.clear();
  variants.set(key, svg);
  return svg;
}
