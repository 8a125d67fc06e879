/**
 * @module The banner card: a wide header with title, subtitle, a background pattern and an
 * accent rule.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';

export const bannerPatterns = ['dots', 'grid', 'lines', 'none'] as const;
type BannerPattern = (typeof bannerPatterns)[number];
export const bannerAlignments = ['center', 'left'] as const;
type BannerAlignment = (typeof bannerAlignments)[number];

interface BannerInput {
  title: string;
  subtitle: string;
  pattern: BannerPattern;
  alignment: BannerAlignment;
  theme: Theme;
}

const width = 800;
const padding = 48;
const textWidth = width - 2 * padding;
/** The title shrinks from 40 px down to 24 px to stay on one line, then wraps. */
const titleSizes = [40, 36, 32, 28, 24];
const subtitleSize = 17;

function patternDefs(pattern: BannerPattern, color: string): string {
  switch (pattern) {
    case 'dots':
      return `<pattern id="p" width="18" height="18" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.4" fill="${color}"/></pattern>`;
    case 'grid':
      return `<pattern id="p" width="24" height="24" patternUnits="userSpaceOnUse"><path d="M24 0H0V24" fill="none" stroke="${color}" stroke-width="1"/></pattern>`;
    case 'lines':
      return `<pattern id="p" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0V14" stroke="${color}" stroke-width="1.5"/></pattern>`;
    case 'none':
      return '';
  }
}

function fitTitle(title: string): { size: number; lines: string[] } {
  for (const size of titleSizes) {
    if (measureText(title, { size, bold: true }) <= textWidth) return { size, lines: [title] };
  }
  const size = titleSizes.at(-1)!;
  return { size, lines: wrapText(title, { maxWidth: textWidth, size, bold: true, maxLines: 3 }) };
}

export function renderBanner({ title, subtitle, pattern, alignment, theme }: BannerInput): string {
  const heading = fitTitle(title);
  const subtitleLines = subtitle
    ? wrapText(subtitle, { maxWidth: textWidth, size: subtitleSize, maxLines: 3 })
    : [];
  const titleLineHeight = Math.round(heading.size * 1.25);
  const textHeight =
    heading.lines.length * titleLineHeight + (subtitleLines.length ? 14 + subtitleLines.length * 26 : 0);
  const height = Math.max(180, textHeight + 2 * padding + 10);
  const x = alignment === 'center' ? width / 2 : padding;
  const anchor = alignment === 'center' ? 'middle' : 'start';
  let y = round((height - textHeight) / 2 + heading.size * 0.9);
  const texts: string[] = [];
  for (const line of heading.lines) {
    texts.push(
      `<text x="${x}" y="${y}" fill="${theme.title}" font-size="${heading.size}" font-weight="bold">${escapeXml(line)}</text>`,
    );
    y += titleLineHeight;
  }
  y += 14 - titleLineHeight + 26;
  for (const line of subtitleLines) {
    texts.push(
      `<text x="${x}" y="${round(y)}" fill="${theme.text}" font-size="${subtitleSize}">${escapeXml(line)}</text>`,
    );
    y += 26;
  }
  const rule =
    alignment === 'center'
      ? `<rect x="${width / 2 - 40}" y="${height - 22}" width="80" height="4" rx="2" fill="${theme.accent}"/>`
      : `<rect x="${padding - 20}" y="${padding}" width="4" height="${height - 2 * padding}" rx="2" fill="${theme.accent}"/>`;
  const defs = patternDefs(pattern, theme.border);
  const patternLayer = defs
    ? `<defs>${defs}</defs><rect width="${width}" height="${height}" rx="6" fill="url(#p)" opacity=".7"/>`
    : '';
  return svgDocument({
    width,
    height,
    title: subtitle ? `${title}: ${subtitle}` : title,
    body: `${cardFrame({ width, height, theme })}${patternLayer}${rule}<g font-family="${fontFamily}" text-anchor="${anchor}">${texts.join('')}</g>`,
  });
}
