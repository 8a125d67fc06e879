/**
 * @module Every simple-icons logo (CC0, about 3,500) for shields' `logo=` and skill-icons' `i=`
 * on Node: each one is read from the package's `icons/<slug>.svg` the first time it is asked for
 * and kept, with its brand colour from `icons.json` (read once), so the process pays nothing
 * until then (importing the package instead costs about 34 MB and 220 ms).
 * Node-only (it reads files): the Workers entry does not use it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrandIcon } from '../../brands/brand-icon.js';
import type { LogoCatalogue } from '../../compat/simple-icons-logos.js';

/** Only path commands, numbers and separators reach the card: the file is data, not markup. */
const pathData = /^[MmLlHhVvCcSsQqTtAaZz0-9.,\s+-eE]{1,20000}$/;
const titleText = /<title>([^<]{1,200})<\/title>/;
const pathAttribute = /<path d="([^"]{1,20000})"/;

const xmlEntities: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
};

/** The logo in one of simple-icons' SVG files; `undefined` if the file is not what we expect. */
export function logoFromSvg(svg: string, hex: string | null = null): BrandIcon | undefined {
  const path = pathAttribute.exec(svg)?.[1];
  const title = titleText.exec(svg)?.[1];
  if (path === undefined || title === undefined || !pathData.test(path)) return undefined;
  return {
    title: title.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => xmlEntities[entity]!),
    hex,
    path,
    paint: 'fill',
  };
}

const hexColour = /^[0-9A-Fa-f]{6}$/;

/** `#rrggbb` by slug from simple-icons' `icons.json` (entries `{ slug, hex, ... }`). */
function brandColours(json: string): Map<string, string> {
  const colours = new Map<string, string>();
  const entries: unknown = JSON.parse(json);
  if (!Array.isArray(entries)) return colours;
  for (const entry of entries as Array<{ slug?: unknown; hex?: unknown }>) {
    if (typeof entry?.slug === 'string' && typeof entry.hex === 'string' && hexColour.test(entry.hex))
      colours.set(entry.slug, `#${entry.hex.toLowerCase()}`);
  }
  return colours;
}

/** The catalogue of the installed simple-icons package; slugs are `[a-z0-9]` (see `toSlug`). */
export function simpleIconsOnDisk(): LogoCatalogue {
  const require = createRequire(import.meta.url);
  // The package exports its icon files, not its package.json: locate the folder by one of them.
  const folder = dirname(require.resolve('simple-icons/icons/github.svg'));
  const dataFile = require.resolve('simple-icons/icons.json');
  /** Brand colours by slug from the package's data file (460 KB), read once when first needed. */
  let colours: Promise<Map<string, string>> | undefined;
  const colourOf = async (slug: string) => {
    colours ??= readFile(dataFile, 'utf8').then(brandColours, () => new Map());
    return (await colours).get(slug) ?? null;
  };
  /**
   * Logos found, kept: at most one per file of the package (a few MB at worst). Misses are not
   * kept, so made-up slugs cannot grow it; a failed open costs microseconds.
   */
  const found = new Map<string, BrandIcon>();
  return async (slug) => {
    if (!/^[a-z0-9]{1,60}$/.test(slug)) return undefined;
    const known = found.get(slug);
    if (known) return known;
    const svg = await readFile(join(folder, `${slug}.svg`), 'utf8').catch(() => undefined);
    const logo = svg === undefined ? undefined : logoFromSvg(svg, await colourOf(slug));
    if (logo) found.set(slug, logo);
    return logo;
  };
}
