/**
 * @module The `/svg` shapes: divider, status pill, pill and callout card.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import { type Theme, visibleOn } from '../themes/index.js';

export const shapeTypes = ['divider', 'status', 'pill', 'card'] as const;
type ShapeType = (typeof shapeTypes)[number];

interface ShapeInput {
  type: ShapeType;
  /** Empty: the type's own default (a divider has none). */
  text: string;
  theme: Theme;
}

/** What each type says when no text is given. */
const shapeDefaultText: Record<ShapeType, string> = {
  divider: '',
  status: 'Available for work',
  pill: 'New',
  card: 'Tip: every card here is an image; embed it anywhere Markdown is rendered.',
};

function divider(text: string, theme: Theme): string {
  const width = 800;
  const height = 24;
  const gradient = `<linearGradient id="d"><stop offset="0" stop-color="${theme.accent}" stop-opacity="0"/><stop offset=".5" stop-color="${theme.accent}"/><stop offset="1" stop-color="${theme.accent}" stop-opacity="0"/></linearGradient>`;
  if (!text) {
    return svgDocument({
      width,
      height,
      title: 'Divider',
      body: `${gradient}<rect x="0" y="11" width="${width}" height="2" rx="1" fill="url(#d)"/>`,
    });
  }
  const label = wrapText(text, { maxWidth: 500, size: 13, maxLines: 1 })[0] ?? '';
  const labelWidth = measureText(label, { size: 13 }) + 32;
  const side = (width - labelWidth) / 2;
  return svgDocument({
    width,
    height,
    title: text,
    body: `${gradient}<rect x="0" y="11" width="${round(side)}" height="2" fill="url(#d)"/><rect x="${round(side + labelWidth)}" y="11" width="${round(side)}" height="2" fill="url(#d)"/><text x="${width / 2}" y="16.5" text-anchor="middle" fill="${theme.text}" font-family="${fontFamily}" font-size="13">${escapeXml(label)}</text>`,
  });
}

function pillShape(text: string, theme: Theme, withDot: boolean): string {
  const label = wrapText(text, { maxWidth: 400, size: 12, bold: true, maxLines: 1 })[0] ?? '';
  const height = 28;
  const dotSpace = withDot ? 18 : 0;
  const width = Math.ceil(measureText(label, { size: 12, bold: true }) + 28 + dotSpace);
  const textColor = withDot ? theme.text : visibleOn('#ffffff', theme.accent, '#111111');
  const frame = withDot
    ? `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="${height / 2}" fill="${theme.background}" stroke="${theme.border}"/><circle cx="18" cy="14" r="4.5" fill="#22c55e"/><circle cx="18" cy="14" r="7.5" fill="#22c55e" opacity=".25"/>`
    : `<rect width="${width}" height="${height}" rx="${height / 2}" fill="${theme.accent}"/>`;
  return svgDocument({
    width,
    height,
    title: text,
    body: `${frame}<text x="${round(14 + dotSpace)}" y="18.5" fill="${textColor}" font-family="${fontFamily}" font-size="12" font-weight="bold">${escapeXml(label)}</text>`,
  });
}

function callout(text: string, theme: Theme): string {
  const width = 600;
  const lines = wrapText(text, { maxWidth: width - 64, size: 14, maxLines: 8 });
  const height = 36 + lines.length * 21;
  const body = lines
    .map((line, index) => `<text x="36" y="${31 + index * 21}">${escapeXml(line)}</text>`)
    .join('');
  return svgDocument({
    width,
    height,
    title: text,
    body: `${cardFrame({ width, height, theme })}<rect x="12" y="12" width="4" height="${height - 24}" rx="2" fill="${theme.accent}"/><g font-family="${fontFamily}" font-size="14" fill="${theme.text}">${body}</g>`,
  });
}

export function renderShape({ type, text, theme }: ShapeInput): string {
  const content = text || shapeDefaultText[type];
  switch (type) {
    case 'divider':
      return divider(content, theme);
    case 'status':
      return pillShape(content, theme, true);
    case 'pill':
      return pillShape(content, theme, false);
    case 'card':
      return callout(content, theme);
  }
}
