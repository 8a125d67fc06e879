/**
 * @module The /languages card: a stacked bar of byte shares and a two-column legend.
 */
import type { LanguageShares } from '../insights/language-shares.js';
import { round, svgDocument } from '../svg/document.js';
import { fitText } from '../svg/fit.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { label } from './github-marks.js';

interface LanguagesInput {
  shares: LanguageShares;
  theme: Theme;
  /** Replaces the title; `null` draws no title row. */
  title?: string | null;
  hideBorder?: boolean;
  /** Corner radius, px. */
  radius?: number;
  /** Smallest card width, px; default 350. */
  minWidth?: number;
  /**
   * A stacked bar with a two-column legend (default); `rows`: one row per language, its name
   * over its own progress bar with the share beside it (github-readme-stats' `normal`); or a
   * donut or pie chart beside the legend.
   */
  layout?: 'bar' | 'rows' | 'donut' | 'pie';
  /** Bar layout only: no bar and no percentages, the legend lists the names. */
  hideProgress?: boolean;
  /** How a share is written: `12.3%` (default) or its size (`12.5 KB`, 1,024-byte units). */
  shareFormat?: 'percent' | 'bytes';
}

const defaultWidth = 350;
const defaultTitle = 'Most Used Languages';
/** Radius of the donut and pie charts, px. */
const chartRadius = 60;
const barTopWithTitle = 52;
const barHeight = 10;
const rowHeight = 24;

const percentText = (percent: number) => `${percent.toFixed(1)}%`;
const byteUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** `12.5 KB`: one decimal in the largest 1,024-byte unit below the size (as github-readme-stats). */
function bytesText(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < byteUnits.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size.toFixed(1)} ${byteUnits[unit]}`;
}
const legendSize = 12;
/** Space between a legend text and the next column or the card's edge, px. */
const legendGap = 8;

/** "Name 12.3%" within `maxWidth` px: a long name is cut, the share always shows (when drawn). */
function legendText(entry: Entry, maxWidth: number, withShare = true): string {
  const share = withShare ? ` ${entry.share}` : '';
  const nameWidth = maxWidth - measureText(share, { size: legendSize });
  return `${fitText(entry.name, { maxWidth: nameWidth, size: legendSize })}${share}`;
}

interface Entry {
  name: string;
  color: string;
  percent: number;
  /** The share as written in the legend. */
  share: string;
}

/** One circle per language, dashed to its share of the circumference (a pie is a thick donut). */
function circleChart(entries: readonly Entry[], cx: number, cy: number, pie: boolean): string {
  const radius = pie ? chartRadius / 2 : chartRadius * 0.8;
  const strokeWidth = pie ? chartRadius : chartRadius * 0.4;
  const circumference = 2 * Math.PI * radius;
  let offset = 0;
  return entries
    .map((entry) => {
      const length = (entry.percent / 100) * circumference;
      const arc = `<circle cx="${round(cx)}" cy="${round(cy)}" r="${round(radius)}" fill="none" stroke="${entry.color}" stroke-width="${round(strokeWidth)}" stroke-dasharray="${round(length)} ${round(circumference)}" stroke-dashoffset="${round(-offset)}" transform="rotate(-90 ${round(cx)} ${round(cy)})"/>`;
      offset += length;
      return arc;
    })
    .join('');
}

export function renderLanguages(input: LanguagesInput): string {
  const { shares, theme } = input;
  const title = input.title === undefined ? defaultTitle : input.title;
  const layout = input.layout ?? 'bar';
  // Without progress there is nothing to draw per row: the names go in the legend, as theirs.
  if (layout === 'rows' && !input.hideProgress) return renderLanguageRows(input, title);
  if (layout === 'donut' || layout === 'pie') return renderLanguageChart(input, title, layout === 'pie');
  const width = Math.max(defaultWidth, input.minWidth ?? 0);
  const barTop = title === null ? barTopWithTitle - 30 : barTopWithTitle;
  const barWidth = width - 2 * framePadding;
  // Without the bar, the legend moves up into its place.
  const legendTop = barTop + (input.hideProgress ? 16 : 36);
  const segments: string[] = [];
  let x = framePadding;
  for (const language of input.hideProgress ? [] : shares.top) {
    const size = (language.percent / 100) * barWidth;
    segments.push(
      `<rect x="${round(x)}" y="${barTop}" width="${round(size)}" height="${barHeight}" fill="${language.color}"/>`,
    );
    x += size;
  }
  if (shares.otherPercent > 0.05 && !input.hideProgress) {
    segments.push(
      `<rect x="${round(x)}" y="${barTop}" width="${round(framePadding + barWidth - x)}" height="${barHeight}" fill="${theme.muted}" opacity=".5"/>`,
    );
  }
  const entries = legendEntries(shares, theme, input.shareFormat);
  const rows = Math.ceil(entries.length / 2);
  const legend = entries
    .map((entry, index) => {
      const column = index < rows ? 0 : 1;
      const row = index % rows;
      const left = framePadding + column * (barWidth / 2);
      const y = legendTop + row * rowHeight;
      const text = legendText(entry, barWidth / 2 - 16 - legendGap, !input.hideProgress);
      return `<circle cx="${left + 5}" cy="${y - 4}" r="5" fill="${entry.color}"/>${label(left + 16, y, text, { fill: theme.text, size: legendSize })}`;
    })
    .join('');
  const empty =
    entries.length === 0
      ? label(framePadding, legendTop, 'No public code found', { fill: theme.muted, size: 12 })
      : '';
  const height = legendTop - 6 + Math.max(1, rows) * rowHeight;
  const clip = `<clipPath id="bar"><rect x="${framePadding}" y="${barTop}" width="${barWidth}" height="${barHeight}" rx="5"/></clipPath>`;
  return svgDocument({
    width,
    height,
    title: title ?? defaultTitle,
    description: describe(entries),
    body: `${cardFrame({ width, height, theme, title: title ?? undefined, hideBorder: input.hideBorder, radius: input.radius })}<defs>${clip}</defs><g clip-path="url(#bar)">${segments.join('')}</g><g font-family="${fontFamily}">${legend}${empty}</g>`,
  });
}

function legendEntries(
  shares: LanguageShares,
  theme: Theme,
  format: 'percent' | 'bytes' = 'percent',
): Entry[] {
  // Every share is of the same total: the first gives it, for the size of "Other".
  const first = shares.top[0];
  const totalBytes = first === undefined ? 0 : (first.bytes / first.percent) * 100;
  const share = (percent: number, bytes: number) =>
    format === 'bytes' ? bytesText(bytes) : percentText(percent);
  const entries = shares.top.map((language) => ({
    name: language.name,
    color: language.color,
    percent: language.percent,
    share: share(language.percent, language.bytes),
  }));
  if (shares.otherPercent > 0.05)
    entries.push({
      name: 'Other',
      color: theme.muted,
      percent: shares.otherPercent,
      share: share(shares.otherPercent, (totalBytes * shares.otherPercent) / 100),
    });
  return entries;
}

function describe(entries: readonly Entry[]): string {
  return entries.map((entry) => `${entry.name} ${entry.share}`).join(', ') || 'No public code found';
}

/** Distance between the tops of two language rows, px (theirs: 40). */
const languageRowHeight = 40;
const rowBarHeight = 8;

/**
 * github-readme-stats' normal layout: per language its name on the left, under it a progress
 * bar of its share on a faint track, the share written right of the bar.
 */
function renderLanguageRows(input: LanguagesInput, title: string | null): string {
  const { theme } = input;
  const entries = legendEntries(input.shares, theme, input.shareFormat);
  const width = Math.max(defaultWidth, input.minWidth ?? 0);
  const top = title === null ? framePadding : barTopWithTitle - 12;
  const shareWidth = Math.max(0, ...entries.map((entry) => measureText(entry.share, { size: legendSize })));
  const innerWidth = width - 2 * framePadding;
  const trackWidth = innerWidth - shareWidth - legendGap;
  const rows = entries
    .map((entry, index) => {
      const rowTop = top + index * languageRowHeight;
      const barY = rowTop + 22;
      // Each bar is its share of the whole track (a sliver stays visible).
      const filled = Math.max(2, (Math.min(100, entry.percent) / 100) * trackWidth);
      return `<g class="language-row">${label(framePadding, rowTop + 14, entry.name, { fill: theme.text, size: legendSize, maxWidth: innerWidth })}<rect x="${framePadding}" y="${round(barY)}" width="${round(trackWidth)}" height="${rowBarHeight}" rx="5" fill="${theme.muted}" opacity=".3"/><rect class="language-progress" x="${framePadding}" y="${round(barY)}" width="${round(filled)}" height="${rowBarHeight}" rx="5" fill="${entry.color}"/>${label(framePadding + innerWidth, barY + rowBarHeight, entry.share, { fill: theme.text, size: legendSize, anchor: 'end' })}</g>`;
    })
    .join('');
  const empty =
    entries.length === 0
      ? label(framePadding, top + 14, 'No public code found', { fill: theme.muted, size: 12 })
      : '';
  const height = top + Math.max(1, entries.length) * languageRowHeight + framePadding - 8;
  return svgDocument({
    width,
    height,
    title: title ?? defaultTitle,
    description: describe(entries),
    body: `${cardFrame({ width, height, theme, title: title ?? undefined, hideBorder: input.hideBorder, radius: input.radius })}<g font-family="${fontFamily}">${rows}${empty}</g>`,
  });
}

/** Donut or pie: the chart on the left, one legend row per language on the right. */
function renderLanguageChart(input: LanguagesInput, title: string | null, pie: boolean): string {
  const { theme } = input;
  const entries = legendEntries(input.shares, theme, input.shareFormat);
  const top = title === null ? framePadding : barTopWithTitle;
  const chartSize = 2 * chartRadius;
  const legendHeight = Math.max(1, entries.length) * rowHeight;
  const height = top + Math.max(chartSize, legendHeight) + framePadding;
  const width = Math.max(defaultWidth, input.minWidth ?? 0);
  const legendX = framePadding + chartSize + 24;
  const legend = entries
    .map((entry, index) => {
      const y = top + 14 + index * rowHeight;
      const text = legendText(entry, width - legendX - 16 - framePadding);
      return `<circle cx="${legendX + 5}" cy="${y - 4}" r="5" fill="${entry.color}"/>${label(legendX + 16, y, text, { fill: theme.text, size: legendSize })}`;
    })
    .join('');
  const chart =
    entries.length === 0
      ? label(framePadding, top + 14, 'No public code found', { fill: theme.muted, size: 12 })
      : circleChart(entries, framePadding + chartRadius, top + chartRadius, pie);
  return svgDocument({
    width,
    height,
    title: title ?? defaultTitle,
    description: describe(entries),
    body: `${cardFrame({ width, height, theme, title: title ?? undefined, hideBorder: input.hideBorder, radius: input.radius })}<g class="chart">${chart}</g><g font-family="${fontFamily}">${legend}</g>`,
  });
}
