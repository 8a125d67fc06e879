/**
 * @module The shape of a logo in a 24x24 box, from simple-icons or drawn here, and how to
 * place it in a card.
 */
import { round } from '../svg/document.js';

export interface BrandIcon {
  title: string;
  /** Brand colour `#rrggbb`, or null for generic symbols (drawn in the theme's icon colour). */
  hex: string | null;
  /** Path data in a 24x24 box. */
  path: string;
  /** `fill` (simple-icons), `evenodd` (drawn with holes) or `stroke` (line drawings). */
  paint: 'fill' | 'evenodd' | 'stroke';
}

/** The fields of a simple-icons entry the cards use (see simple-icons.generated.ts). */
export interface SimpleIconData {
  title: string;
  /** Brand colour without `#`. */
  hex: string;
  path: string;
}

/** A simple-icons entry (CC0) as a BrandIcon. */
export function fromSimpleIcon(icon: SimpleIconData): BrandIcon {
  return { title: icon.title, hex: `#${icon.hex.toLowerCase()}`, path: icon.path, paint: 'fill' };
}

/** The logo as a `<path>` scaled from 24 px to `size`, its top-left corner at (x, y). */
export function placeIcon(icon: BrandIcon, x: number, y: number, size: number, color: string): string {
  const scale = round(size / 24);
  const paint =
    icon.paint === 'stroke'
      ? `fill="none" stroke="${color}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"`
      : `fill="${color}"${icon.paint === 'evenodd' ? ' fill-rule="evenodd"' : ''}`;
  return `<path transform="translate(${round(x)} ${round(y)}) scale(${scale})" d="${icon.path}" ${paint}/>`;
}
