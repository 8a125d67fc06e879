/**
 * @module Colour contrast (WCAG 2 relative luminance), so brand colours that would vanish on a
 * theme's background (GitHub's near-black on a dark card) fall back to a theme colour.
 */

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of `#rgb` or `#rrggbb`. */
export function luminance(hex: string): number {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const value = Number.parseInt(full, 16);
  return (
    0.2126 * channel((value >> 16) & 255) +
    0.7152 * channel((value >> 8) & 255) +
    0.0722 * channel(value & 255)
  );
}

/** WCAG contrast ratio between two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Graphics need 3:1 against their background (WCAG 1.4.11); below that use `fallback`. */
const minimumGraphicsContrast = 3;

/**
 * `color` when it stands out on `background`, else `fallback`. A `none` background (the
 * transparent theme) must work on light and dark pages, so both are checked.
 */
export function visibleOn(color: string, background: string, fallback: string): string {
  const backgrounds = background === 'none' ? ['#ffffff', '#0d1117'] : [background];
  const enough = backgrounds.every(
    (bg) => contrastRatio(color, bg) >= (background === 'none' ? 2 : minimumGraphicsContrast),
  );
  return enough ? color : fallback;
}
