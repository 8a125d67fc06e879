/**
 * @module The quote card: wrapped quotation, author line, big quotation mark in the accent.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { fitText } from '../svg/fit.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';

export const quoteAlignments = ['left', 'center', 'right'] as const;
type QuoteAlignment = (typeof quoteAlignments)[number];

interface QuoteInput {
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

/** An opening quotation mark in a 24 px box (two blocks with tails, turned upside down when drawn). */
const quoteMarkPath = 'M6 17h3l2-4V7H5v6h3zm8 0h3l2-4V7h-6v6h3z';

const anchors: Record<QuoteAlignment, string> = { left: 'start', center: 'middle', right: 'end' };

export function renderQuote({ text, author, alignment, theme }: QuoteInput): string {
  const lines = wrapText(text, { maxWidth: maxTextWidth, size: textSize, maxLines: 8 });
  // One line for the author, no wider than the quotation may be.
  const authorLine = author ? fitText(`— ${author}`, { maxWidth: maxTextWidth, size: authorSize }) : '';
  const widest = Math.max(
    ...lines.map((line) => measureText(line, { size: textSize })),
    measureText(authorLine, { size: authorSize }),
  );
  const width = Math.ceil(Math.max(320, widest + 2 * padding));
  const top = 56;
  const height = top + lines.length * lineHeight + (authorLine ? 30 : 4) + 10;
  const x = alignment === 'left' ? padding : alignment === 'right' ? width - padding : width / 2;
  const markX =
    alignment === 'right' ? width - padding - 26 : alignment === 'center' ? width / 2 - 19 : padding - 4;
  // A drawn mark, not a glyph: its shape stays the same in every font and clear of the text.
  const mark = `<path transform="translate(${round(markX)} 6) scale(1.6) rotate(180 12 12)" d="${quoteMarkPath}" fill="${theme.accent}" opacity=".55" aria-hidden="true"/>`;
  const body = lines
    .map((line, index) => `<text x="${round(x)}" y="${top + index * lineHeight}">${escapeXml(line)}</text>`)
    .join('');
  const footer = authorLine
    ? `<text x="${round(x)}" y="${top + (lines.length - 1) * lineHeight + 32}" fill="${theme.muted}" font-size="${authorSize}">${escapeXml(authorLine)}</text>`
    : '';
  return svgDocument({
    width,
    height,
    title: author ? `“${text}” — ${author}` : `“${text}”`,
    body: `${cardFrame({ width, height, theme })}${mark}<g font-family="${fontFamily}" font-size="${textSize}" fill="${theme.text}" text-anchor="${anchors[alignment]}">${body}${footer}</g>`,
  });
}
