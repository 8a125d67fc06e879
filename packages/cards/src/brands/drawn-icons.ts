/**
 * @module Logos simple-icons does not carry (LinkedIn left at the brand's request) and generic
 * symbols, drawn simply in a 24x24 box.
 */
import type { BrandIcon } from './brand-icon.js';

/** Rounded square with "in" cut out (even-odd fill makes the letters holes). */
export const linkedinIcon: BrandIcon = {
  title: 'LinkedIn',
  hex: '#0a66c2',
  paint: 'evenodd',
  path: 'M3 0h18a3 3 0 0 1 3 3v18a3 3 0 0 1-3 3H3a3 3 0 0 1-3-3V3a3 3 0 0 1 3-3zM5.1 6.3a1.9 1.9 0 1 0 3.8 0a1.9 1.9 0 1 0-3.8 0zM5.3 9.4h3.4V19H5.3zM10.9 9.4h3.2v1.4c.5-.9 1.6-1.7 3.3-1.7 3.3 0 3.9 2.1 3.9 4.9V19h-3.4v-4.4c0-1.1 0-2.5-1.5-2.5s-1.8 1.2-1.8 2.4V19h-3.7z',
};

/** A globe: outline, two meridians and three parallels. */
export const websiteIcon: BrandIcon = {
  title: 'Website',
  hex: null,
  paint: 'stroke',
  path: 'M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zM2 12h20M12 2c2.7 2.8 4 6.1 4 10s-1.3 7.2-4 10M12 2c-2.7 2.8-4 6.1-4 10s1.3 7.2 4 10M3.4 7h17.2M3.4 17h17.2',
};

/** An envelope with its flap. */
export const emailIcon: BrandIcon = {
  title: 'Email',
  hex: null,
  paint: 'stroke',
  path: 'M3.5 5h17A1.5 1.5 0 0 1 22 6.5v11a1.5 1.5 0 0 1-1.5 1.5h-17A1.5 1.5 0 0 1 2 17.5v-11A1.5 1.5 0 0 1 3.5 5zM2.6 6.2 12 13l9.4-6.8',
};
