/**
 * @module The /neofetch card: a terminal window with an ASCII logo and system-info style lines
 * (repositories, stars, followers, uptime, languages).
 */

import { round, svgDocument } from '../svg/document.js';
import type { Theme } from '../themes/index.js';
import { label } from './github-marks.js';

interface NeofetchInput {
  title: string;
  lines: Array<[string, string]>;
  palette: readonly string[];
  theme: Theme;
}

/** Monospace stack; its glyphs are 0.6 em wide in every member, so widths are exact by count. */
const monoFamily = 'DejaVu Sans Mono,Menlo,Consolas,monospace';
const fontSize = 13;
const charWidth = fontSize * 0.6;
const lineHeight = 19;
/** A cat (the platform's mascot is one), symmetric so it reads at a glance. */
const logo = [
  '    /\\_____/\\    ',
  '   /  o   o  \\   ',
  '  ( ==  ^  == )  ',
  '   )         (   ',
  '  (           )  ',
  ' ( (  )   (  ) ) ',
  '(__(__)___(__)__)',
];
const maxValueLength = 42;

export function renderNeofetch({ title, lines, palette, theme }: NeofetchInput): string {
  const logoWidth = Math.max(...logo.map((line) => line.length)) * charWidth;
  const infoX = 20 + logoWidth + 16;
  const rows: Array<[string, string]> = lines.map(([key, value]) => [
    key,
    value.length > maxValueLength ? `${value.slice(0, maxValueLength - 1)}…` : value,
  ]);
  const longest = Math.max(title.length, ...rows.map(([key, value]) => key.length + 2 + value.length));
  const width = Math.ceil(infoX + longest * charWidth + 24);
  const top = 52;
  const height = Math.max(top + logo.length * lineHeight, top + (rows.length + 3) * lineHeight) + 14;
  const bar = `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="8" fill="${theme.background}" stroke="${theme.border}"/><path d="M1 28.5H${width - 1}" stroke="${theme.border}"/>${['#ff5f56', '#ffbd2e', '#27c93f'].map((color, index) => `<circle cx="${18 + index * 18}" cy="15" r="5.5" fill="${color}"/>`).join('')}`;
  const art = logo
    .map((line, index) =>
      label(20, top + index * lineHeight, line, { fill: theme.accent, extra: 'xml:space="preserve"' }),
    )
    .join('');
  const heading = `${label(infoX, top, title, { fill: theme.title, bold: true })}${label(infoX, top + lineHeight, '-'.repeat(title.length), { fill: theme.muted })}`;
  const info = rows
    .map(([key, value], index) => {
      const y = top + (index + 2) * lineHeight;
      return `${label(infoX, y, `${key}:`, { fill: theme.accent, bold: true })}${label(infoX + (key.length + 2) * charWidth, y, value, { fill: theme.text })}`;
    })
    .join('');
  const swatchY = top + (rows.length + 2) * lineHeight - 8;
  const swatches = palette
    .map(
      (color, index) =>
        `<rect x="${round(infoX + index * 22)}" y="${swatchY}" width="20" height="12" fill="${color}"/>`,
    )
    .join('');
  return svgDocument({
    width,
    height,
    title,
    description: rows.map(([key, value]) => `${key}: ${value}`).join('; '),
    body: `${bar}<g font-family="${monoFamily}" font-size="${fontSize}">${art}${heading}${info}</g>${swatches}`,
  });
}
