/**
 * @module `theme=auto` on every card with a `theme`: the card drawn in `light_theme` and in
 * `dark_theme` and merged into one SVG that follows the viewer's `prefers-color-scheme`.
 */
import type { DrawnCard } from '../cards/render-memo.js';
import { followColorScheme } from '../svg/color-scheme.js';
import type { CardBody, Endpoint } from './endpoint.js';

interface ThemePair {
  light: string;
  dark: string;
}

/** The one light palette with a background (`coral`), and the default dark one. */
const defaultThemePair: ThemePair = { light: 'coral', dark: 'github-dark' };

/**
 * Merged cards per pair of cards drawn once per data version (`renderOnce`): a warm `theme=auto`
 * card is then the same object too, so the pipeline keeps its finished answer (ETag, headers)
 * instead of merging and hashing on every request. An entry lives as long as both halves.
 */
const mergedPairs = new WeakMap<DrawnCard, WeakMap<DrawnCard, DrawnCard>>();

const svgOf = (body: CardBody) => (typeof body === 'string' ? body : body.svg);

function merge(light: CardBody, dark: CardBody): CardBody {
  if (typeof light === 'string' || typeof dark === 'string') {
    const svg = followColorScheme(svgOf(light), svgOf(dark));
    return typeof light === 'string' ? svg : { svg, cache: light.cache };
  }
  let byDark = mergedPairs.get(light);
  if (byDark === undefined) {
    byDark = new WeakMap();
    mergedPairs.set(light, byDark);
  }
  let merged = byDark.get(dark);
  if (merged === undefined) {
    merged = { svg: followColorScheme(light.svg, dark.svg), cache: light.cache };
    byDark.set(dark, merged);
  }
  return merged;
}

/**
 * `endpoint` answering `theme=auto` (any case) too, with `light_theme` and `dark_theme` (each a
 * theme name the endpoint accepts; default `pair`). Endpoints without `theme` are returned as
 * they are, and so is one already wrapped (the first pair given wins).
 */
export function withAutoTheme(endpoint: Endpoint, pair: ThemePair = defaultThemePair): Endpoint {
  if (!('theme' in endpoint.params) || endpoint.followsColorScheme) return endpoint;
  const names = endpoint.queryNames ?? Object.keys(endpoint.params);
  return {
    ...endpoint,
    followsColorScheme: true,
    queryNames: [...new Set([...names, 'light_theme', 'dark_theme'])],
    prepare(query) {
      const { light_theme, dark_theme, ...rest } = query;
      if (rest.theme?.toLowerCase() !== 'auto') return endpoint.prepare(rest);
      const light = endpoint.prepare({ ...rest, theme: light_theme || pair.light });
      if (!light.ok) return { ok: false, message: `light_theme: ${light.message}` };
      const dark = endpoint.prepare({ ...rest, theme: dark_theme || pair.dark });
      if (!dark.ok) return { ok: false, message: `dark_theme: ${dark.message}` };
      return {
        ok: true,
        run: async (context) => {
          const [lightCard, darkCard] = await Promise.all([light.run(context), dark.run(context)]);
          return merge(lightCard, darkCard);
        },
      };
    },
  };
}
