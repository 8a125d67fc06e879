/**
 * @module shields' `logo=<slug>`: the simple-icons logos this service ships, found by slug
 * (`github`, `nodedotjs`) or by title written the way shields accepts it (`node.js`, `c++`).
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

function toSlug(name: string): string {
  let slug = '';
  for (const char of name.toLowerCase()) {
    const replaced = slugReplacements[char];
    if (replaced) slug += replaced;
    else if ((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')) slug += char;
  }
  return slug;
}

/** The logo of a slug or title; not shipped: `undefined` (the badge is drawn without). */
export function logoBySlug(name: string): BrandIcon | undefined {
  const icon = bySlug.get(toSlug(name));
  return icon ? fromSimpleIcon(icon) : undefined;
}
