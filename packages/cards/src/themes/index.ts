/**
 * @module Theme palettes used by every card.
 */
export { defaultThemeName, getTheme, type Theme, type ThemeName, themeNames, themes } from './palettes.js';
