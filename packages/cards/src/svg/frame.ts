/**
 * @module The card frame shared by every themed card: background, border and title.
 */
import type { Theme } from '../themes/index.js';
import { round } from './document.js';
import { escapeXml } from './escape.js';
import { fitText } from './fit.js';
import { fontFamily, measureText } from './measure.js';

/** Inner padding of a card, px. */
export const framePadding = 20;
/** Title font size, px (bold). */
export const titleSize = 16;
/** Baseline of the title, px from the top. */
const titleBaseline = 34;
/** Where content starts under a title, px from the top. */
export const contentTopWithTitle = 54;

export interface FrameOptions {
  width: number;
  height: number;
  theme: Theme;
  /** Plain text (escaped here, cut with an ellipsis to the card's inner width); omitted: no title row. */
  title?: string;
  /** Draw no border (background only). */
  hideBorder?: boolean;
  /** Corner radius, px; default 6. */
  radius?: number;
}

/** Width a title needs, padding included, so cards can grow to fit it. */
export function titleWidth(title: string): number {
  return measureText(title, { size: titleSize, bold: true }) + 2 * framePadding;
}

/**
 * Background rectangle (with a 1 px border inset by half a pixel so it stays crisp) and the
 * optional title. Returns markup to place first inside the card.
 */
export function cardFrame(options: FrameOptions): string {
  const { theme } = options;
  const radius = options.radius ?? 6;
  const stroke = options.hideBorder ? '' : ` stroke="${theme.border}"`;
  const background = `<rect x="0.5" y="0.5" width="${round(options.width - 1)}" height="${round(options.height - 1)}" rx="${radius}" fill="${theme.background}"${stroke}/>`;
  if (options.title === undefined) return background;
  const title = fitText(options.title, {
    maxWidth: options.width - 2 * framePadding,
    size: titleSize,
    bold: true,
  });
  return `${background}<text x="${framePadding}" y="${titleBaseline}" fill="${theme.title}" font-family="${fontFamily}" font-size="${titleSize}" font-weight="bold">${escapeXml(title)}</text>`;
}
