/**
 * @module The /stats card: stars, commits, pull requests, issues, contributed-to, and the grade
 * in a progress ring.
 */
import type { Rank } from '../insights/rank.js';
import { svgDocument } from '../svg/document.js';
import { cardFrame, framePadding, titleSize, titleWidth } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';
import { formatCount, type IconName, icon, label, progressRing } from './github-marks.js';

export interface StatsInput {
  displayName: string;
  stars: number;
  commits: number;
  allCommits: boolean;
  pullRequests: number;
  issues: number;
  contributedTo: number;
  rank: Rank | null;
  showIcons: boolean;
  theme: Theme;
  /** Rows left out (the drop-in `hide` of github-readme-stats). */
  hide?: ReadonlySet<StatsRow>;
  /** Code reviews; a row is added when given. */
  reviews?: number;
  /** Replaces the title; `null` draws no title row. */
  title?: string | null;
  /** Smallest card width, px. */
  minWidth?: number;
  /** Distance between rows, px; default 25. */
  rowHeight?: number;
  /** Corner radius, px. */
  radius?: number;
  hideBorder?: boolean;
  /** What the ring shows: the grade (default) or the percentile. */
  rankLabel?: 'level' | 'percentile';
  /** How values are written; default `formatCount`. */
  formatValue?: (value: number) => string;
}

export type StatsRow = 'stars' | 'commits' | 'prs' | 'issues' | 'contribs' | 'reviews';

const defaultRowHeight = 25;
const firstRowWithTitle = 62;
const firstRowWithoutTitle = 32;
const valueGap = 24;

export function renderStats(input: StatsInput): string {
  const { theme } = input;
  // GitHub names may be 255 characters long: keep the card a card.
  const [name = input.displayName] = wrapText(input.displayName, {
    maxWidth: 260,
    size: titleSize,
    bold: true,
    maxLines: 1,
  });
  const title = input.title === undefined ? `${name}'s GitHub Stats` : input.title;
  const format = input.formatValue ?? formatCount;
  const rowHeight = input.rowHeight ?? defaultRowHeight;
  const firstRow = title === null ? firstRowWithoutTitle : firstRowWithTitle;
  const allRows: Array<[StatsRow, IconName, string, number | undefined]> = [
    ['stars', 'star', 'Total Stars Earned', input.stars],
    [
      'commits',
      'commit',
      input.allCommits ? 'Total Commits (all time)' : 'Total Commits (last year)',
      input.commits,
    ],
    ['prs', 'pull-request', 'Total Pull Requests', input.pullRequests],
    ['reviews', 'pull-request', 'Total Reviews', input.reviews],
    ['issues', 'issue', 'Total Issues', input.issues],
    ['contribs', 'repo', 'Contributed to (last year)', input.contributedTo],
  ];
  const rows = allRows
    .filter(([key, , , value]) => value !== undefined && !input.hide?.has(key))
    .map(([, mark, text, value]): [IconName, string, number] => [mark, text, value!]);
  const labelX = framePadding + (input.showIcons ? 24 : 0);
  const labelWidth = Math.max(
    0,
    ...rows.map(([, text]) => measureText(`${text}:`, { size: 14, bold: true })),
  );
  const valueX = labelX + labelWidth + valueGap;
  const valueWidth = Math.max(
    0,
    ...rows.map(([, , value]) => measureText(format(value), { size: 14, bold: true })),
  );
  const ringSpace = input.rank ? 130 : 0;
  const width = Math.ceil(
    Math.max(
      title === null ? 0 : titleWidth(title),
      valueX + valueWidth + framePadding + ringSpace,
      360,
      input.minWidth ?? 0,
    ),
  );
  // The ring needs its height even when few rows are left.
  const height = Math.max(firstRow + rows.length * rowHeight + 8, input.rank ? firstRow + 118 : 0);
  const body = rows
    .map(([name, text, value], index) => {
      const y = firstRow + index * rowHeight;
      const mark = input.showIcons ? icon(name, framePadding, y - 13, theme.icon) : '';
      return `${mark}${label(labelX, y, `${text}:`, { fill: theme.text, bold: true })}${label(valueX, y, format(value), { fill: theme.text, bold: true })}`;
    })
    .join('');
  let ring = '';
  if (input.rank) {
    const cx = width - framePadding - 55;
    const cy = firstRow + Math.max(rows.length * rowHeight, 118 - 8) / 2 - 12;
    const percent = formatPercent(input.rank.percentile);
    const [inside, under] =
      input.rankLabel === 'percentile'
        ? [{ text: percent, size: 18 }, `grade ${input.rank.level}`]
        : [{ text: input.rank.level, size: 24 }, `top ${percent}`];
    ring = `${progressRing(cx, cy, 40, (100 - input.rank.percentile) / 100, theme.ring)}${label(cx, cy + 8, inside.text, { fill: theme.title, size: inside.size, bold: true, anchor: 'middle' })}${label(cx, cy + 62, under, { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  }
  const description = `${rows.map(([, text, value]) => `${text}: ${value}`).join(', ')}${input.rank ? `, grade ${input.rank.level}` : ''}`;
  return svgDocument({
    width,
    height,
    title: title ?? `${name}'s GitHub Stats`,
    description,
    body: `${cardFrame({ width, height, theme, title: title ?? undefined, hideBorder: input.hideBorder, radius: input.radius })}<g font-family="${fontFamily}" font-size="14">${body}${ring}</g>`,
  });
}

function formatPercent(percentile: number): string {
  return `${percentile < 10 ? percentile.toFixed(1) : Math.round(percentile)}%`;
}
