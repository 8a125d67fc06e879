/**
 * @module The icon card: one logo on a rounded tile in the theme's colours.
 */
import { type BrandIcon, placeIcon } from '../brands/brand-icon.js';
import { round, svgDocument } from '../svg/document.js';
import { type Theme, visibleOn } from '../themes/index.js';

interface IconInput {
  icon: BrandIcon;
  size: number;
  radius: number;
  theme: Theme;
}

/** Share of the tile the logo covers (the rest is breathing room). */
const logoShare = 0.6;

/** The logo in its brand colour when that stands out on the theme, else the theme's icon colour. */
export function logoColor(icon: BrandIcon, theme: Theme): string {
  return icon.hex ? visibleOn(icon.hex, theme.background, theme.icon) : theme.icon;
}

export function renderIcon({ icon, size, radius, theme }: IconInput): string {
  const logo = round(size * logoShare);
  const offset = round((size - logo) / 2);
  const corner = Math.min(radius, size / 2);
  const stroke = theme.background === 'none' ? '' : ` stroke="${theme.border}"`;
  const tile = `<rect x="0.5" y="0.5" width="${size - 1}" height="${size - 1}" rx="${corner}" fill="${theme.background}"${stroke}/>`;
  return svgDocument({
    width: size,
    height: size,
    title: icon.title,
    body: `${tile}${placeIcon(icon, offset, offset, logo, logoColor(icon, theme))}`,
  });
}
