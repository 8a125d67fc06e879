/**
 * @module Colour options of the other services drawn with our cards: a theme with some colours
 * replaced, and github-readme-stats' gradient background (`bg_color=angle,color1,color2,...`).
 */
import type { Theme } from '../themes/index.js';
import { lenient, readHexColor, readList } from './lenient.js';

/** Colours a query may replace; `null` keeps the theme's. */
type ColorOverrides = Partial<
  Record<'background' | 'border' | 'title' | 'text' | 'muted' | 'icon' | 'accent' | 'ring', string | null>
>;

/** `base` with every given colour replaced. */
export function themeWith(base: Theme, overrides: ColorOverrides): Theme {
  const theme = { ...base };
  for (const [key, color] of Object.entries(overrides) as [keyof ColorOverrides, string | null][]) {
    if (color) theme[key] = color;
  }
  return theme;
}

/** A linear gradient: angle in degrees and two or more colours spread evenly. */
interface Gradient {
  angle: number;
  colors: readonly string[];
}

/** A background: one colour or a gradient. */
type Background = { color: string } | { gradient: Gradient };

/** Most colours a gradient keeps (more stops add nothing visible on a card). */
const maxStops = 10;
const anglePattern = /^-?\d{1,4}(\.\d{1,3})?$/;

/** `ff0000` or `angle,color1,color2[,...]`; anything else: ignored. */
export function readBackground(raw: string): Background | undefined {
  if (!raw.includes(',')) {
    const color = readHexColor(raw);
    return color ? { color } : undefined;
  }
  const [angle = '', ...rest] = readList(raw, maxStops + 1);
  const colors = rest.map(readHexColor);
  if (!anglePattern.test(angle) || colors.length < 2 || colors.some((color) => color === undefined))
    return undefined;
  return { gradient: { angle: Number(angle) % 360, colors: colors as string[] } };
}

/** A lenient background colour or gradient; `null` when not given or unusable. */
export function lenientBackground(description: string) {
  return lenient<Background | null>(description, readBackground, null);
}

const gradientId = 'compat-background';

/**
 * The theme with the background applied: a colour replaces the theme's, a gradient is
 * referenced (`url(#...)`) and must then be defined in the card with `withGradient`.
 */
export function themeWithBackground(theme: Theme, background: Background | null): Theme {
  if (background === null) return theme;
  return { ...theme, background: 'color' in background ? background.color : `url(#${gradientId})` };
}

/**
 * Adds the gradient definition to a drawn card (right after the root start tag, whose
 * attribute values are escaped, so its first `>` ends it).
 */
export function withGradient(svg: string, background: Background | null): string {
  if (background === null || !('gradient' in background)) return svg;
  const { angle, colors } = background.gradient;
  const stops = colors
    .map(
      (color, index) =>
        `<stop offset="${Math.round((index / (colors.length - 1)) * 100)}%" stop-color="${color}"/>`,
    )
    .join('');
  const definition = `<defs><linearGradient id="${gradientId}" gradientTransform="rotate(${angle} .5 .5)">${stops}</linearGradient></defs>`;
  const end = svg.indexOf('>') + 1;
  return `${svg.slice(0, end)}${definition}${svg.slice(end)}`;
}
