/**
 * @module The /languages card: a stacked bar of byte shares and a two-column legend.
 */
import type { LanguageShares } from '../insights/language-shares.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { label } from './github-marks.js';

export interface LanguagesInput {
  shares: LanguageShares;
  theme: Theme;
}

const width = 350;
const barTop = 52;
const barHeight = 10;
const rowHeight = 24;

const percentText = (percent: number) => `${percent.toFixed(1)}%`;

export function renderLanguages({ shares, theme }: LanguagesInput): string {
  const barWidth = width - 2 * framePadding;
  const segments: string[] = [];
  let x = framePadding;
  for (const language of shares.top) {
    const size = (language.percent / 100) * barWidth;
    segments.push(
      `<rect x="${round(x)}" y="${barTop}" width="${round(size)}" height="${barHeight}" fill="${language.color}"/>`,
    );
    x += size;
  }
  if (shares.otherPercent > 0.05) {
    segments.push(
      `<rect x="${round(x)}" y="${barTop}" width="${round(framePadding + barWidth - x)}" height="${barHeight}" fill="${theme.muted}" opacity=".5"/>`,
    );
  }
  const entries = shares.top.map((language) => ({
    name: language.name,
    color: language.color,
    percent: language.percent,
  }));
  if (shares.otherPercent > 0.05)
    entries.push({ name: 'Other', color: theme.muted, percent: shares.otherPercent });
  const rows = Math.ceil(entries.length / 2);
  const legend = entries
    .map((entry, index) => {
      const column = index < rows ? 0 : 1;
      const row = index % rows;
      const left = framePadding + column * (barWidth / 2);
      const y = barTop + 36 + row * rowHeight;
      return `<circle cx="${left + 5}" cy="${y - 4}" r="5" fill="${entry.color}"/>${label(left + 16, y, `${entry.name} ${percentText(entry.percent)}`, { fill: theme.text, size: 12 })}`;
    })
    .join('');
  const empty =
    entries.length === 0
      ? label(framePadding, barTop + 36, 'No public code found', { fill: theme.muted, size: 12 })
      : '';
  const height = barTop + 30 + Math.max(1, rows) * rowHeight;
  const clip = `<clipPath id="bar"><rect x="${framePadding}" y="${barTop}" width="${barWidth}" height="${barHeight}" rx="5"/></clipPath>`;
  return svgDocument({
    width,
    height,
    title: 'Most Used Languages',
    description:
      entries.map((entry) => `${entry.name} ${percentText(entry.percent)}`).join(', ') ||
      'No public code found',
    body: `${cardFrame({ width, height, theme, title: 'Most Used Languages' })}<defs>${clip}</defs><g clip-path="url(#bar)">${segments.join('')}</g><g font-family="${fontFamily}">${legend}${empty}</g>`,
  });
}
