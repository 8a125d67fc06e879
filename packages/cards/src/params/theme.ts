/**
 * @module The shared `theme` parameter.
 */
import { defaultThemeName, themeNames } from '../themes/index.js';
import { oneOf } from './param.js';

/** `theme`: one of the 20 palettes; default `github-dark`. */
export const themeParam = oneOf(themeNames, {
  description: 'Colour theme of the card.',
  default: defaultThemeName,
});
