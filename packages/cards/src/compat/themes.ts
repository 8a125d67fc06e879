/**
 * @module Theme names of github-readme-stats, github-readme-streak-stats and
 * github-profile-trophy mapped to the closest of our 20 palettes (by background, then title
 * colour). Names are matched case-insensitively with `_` and `-` alike, since the three projects
 * spell the same theme both ways (`github_dark`, `github-dark`).
 */

import { ownEntry } from '../params/own-entry.js';
import { type ThemeName, themeNames } from '../themes/index.js';

/** Their name (normalised) -> ours. Names that are ours already need no entry. */
const closestTheme: Readonly<Record<string, ThemeName>> = {
  // Light themes: white or pale background, blue or dark text.
  default: 'transparent',
  'default-repocard': 'transparent',
  flat: 'transparent',
  'github-light': 'transparent',
  'solarized-light': 'coral',
  'gruvbox-light': 'coral',
  'catppuccin-latte': 'coral',
  'ayu-light': 'coral',
  graywhite: 'transparent',
  buefy: 'transparent',
  vue: 'transparent',
  calm: 'coral',
  'calm-pink': 'coral',
  'flag-india': 'coral',
  rose: 'coral',
  swift: 'transparent',
  javascript: 'highcontrast',
  'soft-green': 'transparent',
  chalk: 'transparent',
  onestar: 'coral',
  buddhism: 'coral',
  oldie: 'transparent',
  'shadow-red': 'transparent',
  'shadow-green': 'transparent',
  'shadow-blue': 'transparent',
  // Dark themes, by their accent.
  tokyonight: 'tokyo-night',
  'tokyonight-duo': 'tokyo-night',
  'gruvbox-duo': 'gruvbox',
  'onedark-duo': 'onedark',
  'one-dark-pro': 'onedark',
  atom: 'onedark',
  'github-dark-dimmed': 'github-dark',
  'github-dark-blue': 'github-dark',
  gitdimmed: 'github-dark',
  'dark-dimmed': 'github-dark',
  darkhub: 'github-dark',
  'discord-old-blurple': 'midnight',
  discord: 'midnight',
  prussian: 'cobalt',
  cobalt2: 'cobalt',
  'ocean-dark': 'cobalt',
  'blue-navy': 'cobalt',
  'navy-gear': 'cobalt',
  deepblue: 'cobalt',
  blueberry: 'midnight',
  'midnight-purple': 'midnight',
  'material-palenight': 'iceberg',
  'neon-palenight': 'iceberg',
  'city-lights': 'iceberg',
  'ayu-mirage': 'iceberg',
  'noctis-minimus': 'iceberg',
  gotham: 'iceberg',
  'solarized-dark': 'iceberg',
  'vision-friendly-dark': 'slate',
  slateorange: 'slate',
  'vue-dark': 'merko',
  'blue-green': 'merko',
  'green-nur': 'merko',
  leafy: 'merko',
  garden: 'merko',
  hacker: 'chartreuse-dark',
  matrix: 'chartreuse-dark',
  'neon-dark': 'chartreuse-dark',
  'neon-blue': 'chartreuse-dark',
  neon: 'synthwave',
  outrun: 'synthwave',
  'shades-of-purple': 'synthwave',
  'date-night': 'synthwave',
  'ambient-gradient': 'synthwave',
  holi: 'synthwave',
  'holi-theme': 'synthwave',
  jolly: 'dracula',
  aura: 'dracula',
  'aura-dark': 'dracula',
  panda: 'dracula',
  'rose-pine': 'dracula',
  'catppuccin-mocha': 'dracula',
  'dark-lover': 'dracula',
  kimbie: 'gruvbox',
  alduin: 'gruvbox',
  maroongold: 'gruvbox',
  'kacho-ga': 'gruvbox',
  bear: 'gruvbox',
  earth: 'gruvbox',
  'great-gatsby': 'gruvbox',
  algolia: 'midnight',
  nightowl: 'midnight',
  apprentice: 'dark',
  moltack: 'coral',
  codestackr: 'dark',
  darcula: 'dark',
  'dark-smoky': 'dark',
  'black-ice': 'highcontrast',
  juicyfresh: 'monokai',
  'ads-juicy-fresh': 'monokai',
  'monokai-metallian': 'monokai',
  omni: 'dracula',
  react: 'onedark',
  yeblu: 'cobalt',
  blood: 'monokai',
  'blood-dark': 'monokai',
  blux: 'midnight',
  levi: 'midnight',
  icegray: 'graphite',
  elegant: 'graphite',
  'javascript-dark': 'highcontrast',
  'github-green-purple': 'github-dark',
};

const ours = new Set<string>(themeNames);

/** Lower case, `_` as `-`: the three projects spell one theme several ways. */
function normalise(name: string): string {
  return name.trim().toLowerCase().replaceAll('_', '-');
}

/**
 * Our theme for one of their theme names: ours when it is ours, the closest mapped one, else
 * `fallback` (the project's own default, mapped). Unknown names are ignored, as the old
 * services fell back to their default theme.
 */
export function foreignTheme(name: string | null, fallback: ThemeName): ThemeName {
  if (name === null) return fallback;
  const key = normalise(name);
  if (ours.has(key)) return key as ThemeName;
  return ownEntry(closestTheme, key) ?? fallback;
}

/** The mapping table, for the README and its test. */
export const foreignThemeTable: Readonly<Record<string, ThemeName>> = closestTheme;
