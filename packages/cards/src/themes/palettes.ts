/**
 * @module The 20 themes of the spec, each a complete palette defined once for every card.
 */

/** A complete palette. Colours are `#rrggbb`; `background` may be `none` (transparent theme). */
export interface Theme {
  name: ThemeName;
  background: string;
  border: string;
  title: string;
  text: string;
  /** Secondary text (labels, captions). */
  muted: string;
  icon: string;
  accent: string;
  /** Progress rings, dials and highlighted strokes. */
  ring: string;
  /** Contribution-graph scale from "no contributions" to the busiest level (5 steps). */
  graph: readonly [string, string, string, string, string];
}

/** Theme names exactly as the spec lists them (`<platform>-dark` is `github-dark`). */
export const themeNames = [
  'midnight',
  'dark',
  'transparent',
  'graphite',
  'github-dark',
  'dracula',
  'nord',
  'tokyo-night',
  'radical',
  'slate',
  'monokai',
  'merko',
  'gruvbox',
  'onedark',
  'cobalt',
  'synthwave',
  'highcontrast',
  'chartreuse-dark',
  'coral',
  'iceberg',
] as const;

export type ThemeName = (typeof themeNames)[number];

/** Used when a request names no theme: matches GitHub's dark mode, readable on light pages. */
export const defaultThemeName: ThemeName = 'github-dark';

type Palette = Omit<Theme, 'name'>;

const palettes: Record<ThemeName, Palette> = {
  midnight: {
    background: '#0b1026',
    border: '#23305a',
    title: '#8ab4ff',
    text: '#d6def5',
    muted: '#8e9ac0',
    icon: '#8ab4ff',
    accent: '#a78bfa',
    ring: '#8ab4ff',
    graph: ['#161d3d', '#1e3a8a', '#2563eb', '#3b82f6', '#93c5fd'],
  },
  dark: {
    background: '#151515',
    border: '#2e2e2e',
    title: '#ffffff',
    text: '#d4d4d4',
    muted: '#9f9f9f',
    icon: '#79ff97',
    accent: '#79ff97',
    ring: '#79ff97',
    graph: ['#262626', '#0e4429', '#006d32', '#26a641', '#39d353'],
  },
  transparent: {
    background: 'none',
    border: '#8b949e',
    title: '#3b78e0',
    text: '#6e7781',
    muted: '#6e7781',
    icon: '#3b78e0',
    accent: '#3b78e0',
    ring: '#3b78e0',
    graph: ['#8b949e', '#9be9a8', '#40c463', '#30a14e', '#216e39'],
  },
  graphite: {
    background: '#212529',
    border: '#3a4047',
    title: '#f8f9fa',
    text: '#ced4da',
    muted: '#939ba3',
    icon: '#dee2e6',
    accent: '#f8f9fa',
    ring: '#adb5bd',
    graph: ['#2b3035', '#495057', '#6c757d', '#adb5bd', '#f1f3f5'],
  },
  'github-dark': {
    background: '#0d1117',
    border: '#30363d',
    title: '#58a6ff',
    text: '#c9d1d9',
    muted: '#8b949e',
    icon: '#58a6ff',
    accent: '#3fb950',
    ring: '#58a6ff',
    graph: ['#161b22', '#0e4429', '#006d32', '#26a641', '#39d353'],
  },
  dracula: {
    background: '#282a36',
    border: '#44475a',
    title: '#ff79c6',
    text: '#f8f8f2',
    muted: '#a5acd0',
    icon: '#bd93f9',
    accent: '#50fa7b',
    ring: '#bd93f9',
    graph: ['#343746', '#44475a', '#6272a4', '#bd93f9', '#ff79c6'],
  },
  nord: {
    background: '#2e3440',
    border: '#434c5e',
    title: '#88c0d0',
    text: '#e5e9f0',
    muted: '#a3adbf',
    icon: '#81a1c1',
    accent: '#a3be8c',
    ring: '#88c0d0',
    graph: ['#3b4252', '#434c5e', '#5e81ac', '#81a1c1', '#88c0d0'],
  },
  'tokyo-night': {
    background: '#1a1b27',
    border: '#2a2e45',
    title: '#70a5fd',
    text: '#c0caf5',
    muted: '#38bdae',
    icon: '#bf91f3',
    accent: '#bf91f3',
    ring: '#70a5fd',
    graph: ['#24283b', '#2e3c64', '#3d59a1', '#7aa2f7', '#c0caf5'],
  },
  radical: {
    background: '#141321',
    border: '#2c2a45',
    title: '#fe428e',
    text: '#a9fef7',
    muted: '#8ac6c1',
    icon: '#f8d847',
    accent: '#f8d847',
    ring: '#fe428e',
    graph: ['#1f1d33', '#5c1f45', '#a3286a', '#fe428e', '#f8d847'],
  },
  slate: {
    background: '#0f172a',
    border: '#334155',
    title: '#e2e8f0',
    text: '#cbd5e1',
    muted: '#94a3b8',
    icon: '#38bdf8',
    accent: '#38bdf8',
    ring: '#38bdf8',
    graph: ['#1e293b', '#0c4a6e', '#0369a1', '#0ea5e9', '#7dd3fc'],
  },
  monokai: {
    background: '#272822',
    border: '#49483e',
    title: '#ff6188',
    text: '#f8f8f2',
    muted: '#a59f85',
    icon: '#fd971f',
    accent: '#a6e22e',
    ring: '#fd971f',
    graph: ['#3e3d32', '#5b6b1f', '#86a52a', '#a6e22e', '#e6db74'],
  },
  merko: {
    background: '#0a0f0b',
    border: '#1f3324',
    title: '#abd200',
    text: '#c4e1cc',
    muted: '#68b587',
    icon: '#b7d364',
    accent: '#abd200',
    ring: '#abd200',
    graph: ['#142018', '#2c4a1c', '#5a7d10', '#8aa800', '#abd200'],
  },
  gruvbox: {
    background: '#282828',
    border: '#504945',
    title: '#fabd2f',
    text: '#ebdbb2',
    muted: '#a89984',
    icon: '#fe8019',
    accent: '#8ec07c',
    ring: '#fe8019',
    graph: ['#3c3836', '#665c54', '#98971a', '#b8bb26', '#fabd2f'],
  },
  onedark: {
    background: '#282c34',
    border: '#3e4451',
    title: '#e5c07b',
    text: '#abb2bf',
    muted: '#9da5b4',
    icon: '#98c379',
    accent: '#61afef',
    ring: '#61afef',
    graph: ['#2c313a', '#3e4451', '#4b6b8a', '#61afef', '#98c379'],
  },
  cobalt: {
    background: '#193549',
    border: '#1f4662',
    title: '#ffc600',
    text: '#e1efff',
    muted: '#9effff',
    icon: '#0ea5ff',
    accent: '#ff9d00',
    ring: '#ffc600',
    graph: ['#15232d', '#0d3a58', '#0480ef', '#75eeb2', '#ffc600'],
  },
  synthwave: {
    background: '#2b213a',
    border: '#4a3866',
    title: '#f97e72',
    text: '#f2e9ec',
    muted: '#c49bd1',
    icon: '#ff7edb',
    accent: '#72f1b8',
    ring: '#ff7edb',
    graph: ['#34294f', '#6b2a6e', '#b4387c', '#e5289e', '#ff8b39'],
  },
  highcontrast: {
    background: '#000000',
    border: '#ffffff',
    title: '#e7f216',
    text: '#ffffff',
    muted: '#e0e0e0',
    icon: '#00ffff',
    accent: '#00ffff',
    ring: '#e7f216',
    graph: ['#1a1a1a', '#005f5f', '#00a0a0', '#00e0e0', '#e7f216'],
  },
  'chartreuse-dark': {
    background: '#000000',
    border: '#2b3d12',
    title: '#7fff00',
    text: '#ffffff',
    muted: '#b8c7a6',
    icon: '#00aeff',
    accent: '#7fff00',
    ring: '#7fff00',
    graph: ['#141a0c', '#2b5500', '#4d9900', '#66cc00', '#7fff00'],
  },
  coral: {
    background: '#fff5f1',
    border: '#ffd3c4',
    title: '#b93a12',
    text: '#3d2a25',
    muted: '#7a5a51',
    icon: '#e4572e',
    accent: '#e4572e',
    ring: '#e4572e',
    graph: ['#ffe6dc', '#ffc2ae', '#ff9b7a', '#ff7f50', '#d9451b'],
  },
  iceberg: {
    background: '#161821',
    border: '#2e313f',
    title: '#91acd1',
    text: '#c6c8d1',
    muted: '#8d93ad',
    icon: '#84a0c6',
    accent: '#89b8c2',
    ring: '#84a0c6',
    graph: ['#1e2132', '#2e3b55', '#3e5380', '#84a0c6', '#b4d7e0'],
  },
};

/** Every theme by name, frozen so no card can alter a palette. */
export const themes: Readonly<Record<ThemeName, Theme>> = Object.freeze(
  Object.fromEntries(themeNames.map((name) => [name, Object.freeze({ name, ...palettes[name] })])) as Record<
    ThemeName,
    Theme
  >,
);

/** The palette of `name` (typed: only valid names compile). */
export function getTheme(name: ThemeName): Theme {
  return themes[name];
}
