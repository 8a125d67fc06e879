/**
 * @module The /trophy card: one panel per trophy with a cup, its tier (SSS to C) and the value.
 */
import type { Trophy, TrophyTier } from '../insights/trophies.js';
import { trophyTitles } from '../insights/trophies.js';
import { round, svgDocument } from '../svg/document.js';
import { fontFamily } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { formatCount, label } from './github-marks.js';

interface TrophyInput {
  login: string;
  trophies: Trophy[];
  columns: number;
  noFrame: boolean;
  theme: Theme;
  /** Space between panels across and down, px; default 6. */
  gapX?: number;
  gapY?: number;
  /** Panels without their background (the page shows through). */
  noBackground?: boolean;
}

const panel = 110;
const defaultSpacing = 6;

/** Metal of a tier: gold for S ranks, silver for A ranks, bronze for B and C. */
function metal(tier: TrophyTier | null): string {
  if (tier === null) return '#8b949e';
  if (tier.includes('S')) return '#f2c94c';
  if (tier.includes('A')) return '#c9d1d9';
  return '#cd8b4a';
}

function cup(cx: number, top: number, color: string): string {
  return `<path transform="translate(${round(cx - 20)} ${top})" d="M8 2h24v8c0 9-5 15-12 15S8 19 8 10zM8 5H2c0 7 3 10 7 10M32 5h6c0 7-3 10-7 10M17 25h6v6h-6zM12 31h16v5H12z" fill="${color}" fill-opacity=".25" stroke="${color}" stroke-width="1.6" stroke-linejoin="round"/>`;
}

export function renderTrophy(input: TrophyInput): string {
  const { theme, columns } = input;
  const gapX = input.gapX ?? defaultSpacing;
  const gapY = input.gapY ?? defaultSpacing;
  const rows = Math.max(1, Math.ceil(input.trophies.length / columns));
  const width = columns * panel + (columns - 1) * gapX + 2;
  const height = rows * panel + (rows - 1) * gapY + 2;
  const panels = input.trophies
    .map((trophy, index) => {
      const x = 1 + (index % columns) * (panel + gapX);
      const y = 1 + Math.floor(index / columns) * (panel + gapY);
      const cx = x + panel / 2;
      const color = metal(trophy.tier);
      const frame = input.noFrame
        ? ''
        : `<rect x="${x + 0.5}" y="${y + 0.5}" width="${panel - 1}" height="${panel - 1}" rx="6" fill="${input.noBackground ? 'none' : theme.background}" stroke="${theme.border}"/>`;
      return `${frame}${cup(cx, y + 12, color)}${label(cx, y + 66, trophy.tier ?? '?', { fill: color, size: 15, bold: true, anchor: 'middle' })}${label(cx, y + 84, trophyTitles[trophy.kind], { fill: theme.title, size: 11, bold: true, anchor: 'middle' })}${label(cx, y + 99, formatCount(trophy.value), { fill: theme.muted, size: 11, anchor: 'middle' })}`;
    })
    .join('');
  return svgDocument({
    width,
    height,
    title: `${input.login}'s GitHub trophies`,
    description: input.trophies
      .map((trophy) => `${trophyTitles[trophy.kind]}: ${trophy.tier ?? 'none'} (${trophy.value})`)
      .join(', '),
    body: `<g font-family="${fontFamily}">${panels}</g>`,
  });
}
