/**
 * @module Cards drawn once per fetched data object. The in-process cache hands back the same
 * object until the data is refreshed, so a card with the same parameters is drawn once per
 * refresh; fresh data is a new object, which starts a new memo (the old one is collected).
 */
import type { CachePolicy } from '../http/cache-control.js';

/**
 * A card drawn from one version of cached data. The same object comes back for the same data
 * object and parameters, so the pipeline can keep the finished answer (ETag, headers) on it:
 * a new object means new data.
 */
export interface DrawnCard {
  readonly svg: string;
  /** How this answer may be cached, when a parameter chose it (`cache_seconds`); default the endpoint's. */
  readonly cache?: CachePolicy | undefined;
}

const memo = new WeakMap<object, Map<string, DrawnCard>>();
/** Parameter variants kept per data object (themes, options). */
const MAX_VARIANTS = 64;

/**
 * The card drawn by `render` for `data` and the parameters summarised in `key`. Several cards
 * may draw from the same data object, so `key` starts with the card's name.
 *
 * @example renderOnce(stats, `stats|${theme}|${showIcons}`, () => renderStats(...))
 */
export function renderOnce(data: object, key: string, render: () => string, cache?: CachePolicy): DrawnCard {
  let variants = memo.get(data);
  if (variants === undefined) {
    variants = new Map();
    memo.set(data, variants);
  }
  const known = variants.get(key);
  if (known !== undefined) return known;
  const drawn: DrawnCard = { svg: render(), cache };
  if (variants.size >= MAX_VARIANTS) variants.clear();
  variants.set(key, drawn);
  return drawn;
}
