/**
 * @module Theme palettes used by every card.
 */

export { contrastRatio, luminance, visibleOn } from './contrast.js';
export { defaultThemeName, getTheme, type Theme, type ThemeName, themeNames, themes } from './palettes.js';
