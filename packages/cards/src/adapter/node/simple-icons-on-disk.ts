/**
 * @module Every simple-icons logo (CC0, about 3,500) for shields' `logo=` on Node: each one is
 * read from the package's `icons/<slug>.svg` the first time it is asked for and kept, so the
 * process pays nothing until then (importing the package instead costs about 34 MB and 220 ms).
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
export function logoFromSvg(svg: string): BrandIcon | undefined {
  const path = pathAttribute.exec(svg)?.[1];
  const title = titleText.exec(svg)?.[1];
  if (path === undefined || title === undefined || !pathData.test(path)) return undefined;
  return {
    title: title.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => xmlEntities[entity]!),
    // Badges draw logos in `logoColor`; the brand colour is not needed.
    hex: null,
    path,
    paint: 'fill',
  };
}

/** The catalogue of the installed simple-icons package; slugs are `[a-z0-9]` (see `toSlug`). */
export function simpleIconsOnDisk(): LogoCatalogue {
  // The package exports its icon files, not its package.json: locate the folder by one of them.
  const folder = dirname(createRequire(import.meta.url).resolve('simple-icons/icons/github.svg'));
  /**
   * Logos found, kept: at most one per file of the package (a few MB at worst). Misses are not
   * kept, so made-up slugs cannot grow it; a failed open costs microseconds.
   */
  const found = new Map<string, BrandIcon>();
  return async (slug) => {
    if (!/^[a-z0-9]{1,60}$/.test(slug)) return undefined;
    const known = found.get(slug);
    if (known) return known;
    const logo = await readFile(join(folder, `${slug}.svg`), 'utf8').then(logoFromSvg, () => undefined);
    if (logo) found.set(slug, logo);
    return logo;
  };
}
