/**
 * @module The skills card: technology logos in rows, optionally labelled.
 */
import { type BrandIcon, placeIcon } from '../brands/brand-icon.js';
import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { logoColor } from './icon.js';

interface SkillsInput {
  icons: readonly BrandIcon[];
  size: number;
  showLabels: boolean;
  theme: Theme;
  /** Logos per row before wrapping; default 10. */
  perRow?: number;
}

/** Logos per row before wrapping (about 600 px at the largest size). */
const defaultPerRow = 10;
const labelSize = 11;

export function renderSkills({
  icons,
  size,
  showLabels,
  theme,
  perRow = defaultPerRow,
}: SkillsInput): string {
  const padding = 14;
  const gap = Math.round(size * 0.45);
  // With labels, each cell is wide enough for its column's longest label.
  const cellWidth = showLabels
    ? Math.max(size, ...icons.map((icon) => Math.ceil(measureText(icon.title, { size: labelSize }))))
    : size;
  const columns = Math.max(1, Math.min(perRow, icons.length));
  const rows = Math.max(1, Math.ceil(icons.length / perRow));
  const rowHeight = size + (showLabels ? labelSize + 8 : 0);
  const width = 2 * padding + columns * cellWidth + (columns - 1) * gap;
  const height = 2 * padding + rows * rowHeight + (rows - 1) * gap;
  const cells = icons.map((icon, index) => {
    const x = padding + (index % perRow) * (cellWidth + gap);
    const y = padding + Math.floor(index / perRow) * (rowHeight + gap);
    const logo = placeIcon(icon, x + (cellWidth - size) / 2, y, size, logoColor(icon, theme));
    const label = showLabels
      ? `<text x="${round(x + cellWidth / 2)}" y="${y + size + labelSize + 4}">${escapeXml(icon.title)}</text>`
      : '';
    return `<g><title>${escapeXml(icon.title)}</title>${logo}${label}</g>`;
  });
  return svgDocument({
    width,
    height,
    title: `Skills: ${icons.map((icon) => icon.title).join(', ')}`,
    body: `${cardFrame({ width, height, theme })}<g font-family="${fontFamily}" font-size="${labelSize}" fill="${theme.text}" text-anchor="middle">${cells.join('')}</g>`,
  });
}
