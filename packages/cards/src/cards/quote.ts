/**
 * @module The quote card: wrapped quotation, author line, big quotation mark in the accent.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';

export const quoteAlignments = ['left', 'center', 'right'] as const;
export type QuoteAlignment = (typeof quoteAlignments)[number];

export interface QuoteInput {
  text: string;
  author: string;
  alignment: QuoteAlignment;
  theme: Theme;
}

const textSize = 16;
const lineHeight = 24;
const authorSize = 13;
const maxTextWidth = 520;
const padding = 28;

const anchors: Record<QuoteAlignment, string> = { left: 'start', center: 'middle', right: 'end' };

export function renderQuote({ text, author, alignment, theme }: QuoteInput): string {
  const lines = wrapText(text, { maxWidth: maxTextWidth, size: textSize, maxLines: 8 });
  const authorLine = author ? `— ${author}` : '';
  const widest = Math.max(
    ...lines.map((line) => measureText(line, { size: textSize })),
    measureText(authorLine, { size: authorSize }),
  );
  const width = Math.ceil(Math.max(320, widest + 2 * padding));
  const top = 56;
  const height = top + lines.length * lineHeight + (authorLine ? 30 : 4) + 10;
  const x = alignment === 'left' ? padding : alignment === 'right' ? width - padding : width / 2;
  const markX =
    alignment === 'right' ? width - padding - 26 : alignment === 'center' ? width / 2 - 13 : padding - 4;
  const mark = `<text x="${round(markX)}" y="50" fill="${theme.accent}" font-size="56" font-family="Georgia,DejaVu Serif,serif" opacity=".55" aria-hidden="true">“</text>`;
  const body = lines
    .map((line, index) => `<text x="${round(x)}" y="${top + index * lineHeight}">${escapeXml(line)}</text>`)
    .join('');
  const footer = authorLine
    ? `<text x="${round(x)}" y="${top + (lines.length - 1) * lineHeight + 32}" fill="${theme.muted}" font-size="${authorSize}">${escapeXml(authorLine)}</text>`
    : '';
  return svgDocument({
    width,
    height,
    title: authorLine ? `“${text}” ${authorLine}` : `“${text}”`,
    body: `${cardFrame({ width, height, theme })}${mark}<g font-family="${fontFamily}" font-size="${textSize}" fill="${theme.text}" text-anchor="${anchors[alignment]}">${body}${footer}</g>`,
  });
}
