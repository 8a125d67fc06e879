/**
 * @module shields.io's colour words (badge-maker 6) and hex colours, as used by its badges
 * and by the profile views counter, which draws shields badges.
 */

import { ownEntry } from '../params/own-entry.js';
import { readHexColor } from './lenient.js';

/** Named colours and their aliases, as badge-maker 6 draws them. */
const namedColors: Readonly<Record<string, string>> = {
  brightgreen: '#4b0',
  green: '#67ac09',
  yellow: '#d8b800',
  yellowgreen: '#95991a',
  orange: '#ea7233',
  red: '#dd4343',
  blue: '#007ec6',
  grey: '#555',
  gray: '#555',
  lightgrey: '#939393',
  lightgray: '#939393',
  success: '#4b0',
  important: '#ea7233',
  critical: '#dd4343',
  informational: '#007ec6',
  inactive: '#939393',
};

/** A shields colour word or hex colour (`#` optional); anything else: `undefined`. */
export function readShieldsColor(raw: string): string | undefined {
  return ownEntry(namedColors, raw.toLowerCase()) ?? readHexColor(raw);
}
