/**
 * @module shields.io badge styles onto ours: plastic and social draw as flat, the profile
 * views counter's pixel as flat-square.
 */
import type { BadgeStyle } from '../cards/badge.js';
import { ownEntry } from '../params/own-entry.js';

const styles: Readonly<Record<string, BadgeStyle>> = {
  flat: 'flat',
  'flat-square': 'flat-square',
  'for-the-badge': 'for-the-badge',
  plastic: 'flat',
  social: 'flat',
  pixel: 'flat-square',
};

/** Our badge style for theirs; unknown: `undefined`. */
export function readShieldsStyle(raw: string): BadgeStyle | undefined {
  return ownEntry(styles, raw.toLowerCase());
}
