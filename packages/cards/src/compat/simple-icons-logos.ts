/**
 * @module shields' `logo=<slug>`: a simple-icons logo found by slug (`github`, `nodedotjs`) or by
 * title written the way shields accepts it (`node.js`, `c++`). The logos the cards use are
 * shipped in the code; every other one comes from the `LogoCatalogue` the runtime provides
 * (the whole simple-icons set read from disk on Node), when it has one.
 */
import { type BrandIcon, fromSimpleIcon, type SimpleIconData } from '../brands/brand-icon.js';
import * as simpleIcons from '../brands/simple-icons.generated.js';

/** simple-icons' export names are `si` + the slug with a capital first letter. */
const bySlug = new Map<string, SimpleIconData>(
  Object.entries(simpleIcons as Record<string, SimpleIconData>).map(([name, icon]) => [
    name.slice(2).toLowerCase(),
    icon,
  ]),
);

/** simple-icons' title-to-slug rules for the characters titles use. */
const slugReplacements: Readonly<Record<string, string>> = {
  '+': 'plus',
  '.': 'dot',
  '&': 'and',
  '#': 'sharp',
};

/** The simple-icons slug of a slug or title: lowercase letters and digits only. */
function toSlug(name: string): string {
  let slug = '';
  for (const char of name.toLowerCase()) {
    const replaced = slugReplacements[char];
    if (replaced) slug += replaced;
    else if ((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')) slug += char;
  }
  return slug;
}

/** Every simple-icons logo by slug, beyond the ones shipped; `undefined` when it has none. */
export type LogoCatalogue = (slug: string) => Promise<BrandIcon | undefined>;

/** The longest slug simple-icons has is under 40 characters. */
const maxSlugLength = 60;

/** `logo=`: the slug it names, or `undefined` when it cannot be one. */
export function readLogoSlug(raw: string): string | undefined {
  const slug = toSlug(raw);
  return slug.length > 0 && slug.length <= maxSlugLength ? slug : undefined;
}

/** The logo of a slug: shipped, else from the catalogue; neither: `undefined` (drawn without). */
export async function findLogo(
  slug: string,
  catalogue: LogoCatalogue | undefined,
): Promise<BrandIcon | undefined> {
  const shipped = bySlug.get(slug);
  if (shipped) return fromSimpleIcon(shipped);
  return catalogue?.(slug);
}
