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
}

const rowHeight = 25;
const firstRow = 62;
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
  const title = `${name}'s GitHub Stats`;
  const rows: Array<[IconName, string, number]> = [
    ['star', 'Total Stars Earned', input.stars],
    ['commit', input.allCommits ? 'Total Commits (all time)' : 'Total Commits (last year)', input.commits],
    ['pull-request', 'Total Pull Requests', input.pullRequests],
    ['issue', 'Total Issues', input.issues],
    ['repo', 'Contributed to (last year)', input.contributedTo],
  ];
  const labelX = framePadding + (input.showIcons ? 24 : 0);
  const labelWidth = Math.max(...rows.map(([, text]) => measureText(`${text}:`, { size: 14, bold: true })));
  const valueX = labelX + labelWidth + valueGap;
  const valueWidth = Math.max(
    ...rows.map(([, , value]) => measureText(formatCount(value), { size: 14, bold: true })),
  );
  const ringSpace = input.rank ? 130 : 0;
  const width = Math.ceil(Math.max(titleWidth(title), valueX + valueWidth + framePadding + ringSpace, 360));
  const height = firstRow + rows.length * rowHeight + 8;
  const body = rows
    .map(([name, text, value], index) => {
      const y = firstRow + index * rowHeight;
      const mark = input.showIcons ? icon(name, framePadding, y - 13, theme.icon) : '';
      return `${mark}${label(labelX, y, `${text}:`, { fill: theme.text, bold: true })}${label(valueX, y, formatCount(value), { fill: theme.text, bold: true })}`;
    })
    .join('');
  let ring = '';
  if (input.rank) {
    const cx = width - framePadding - 55;
    const cy = firstRow + (rows.length * rowHeight) / 2 - 12;
    ring = `${progressRing(cx, cy, 40, (100 - input.rank.percentile) / 100, theme.ring)}${label(cx, cy + 8, input.rank.level, { fill: theme.title, size: 24, bold: true, anchor: 'middle' })}${label(cx, cy + 62, `top ${formatPercent(input.rank.percentile)}`, { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  }
  const description = `${rows.map(([, text, value]) => `${text}: ${value}`).join(', ')}${input.rank ? `, grade ${input.rank.level}` : ''}`;
  return svgDocument({
    width,
    height,
    title,
    description,
    body: `${cardFrame({ width, height, theme, title })}<g font-family="${fontFamily}" font-size="14">${body}${ring}</g>`,
  });
}

function formatPercent(percentile: number): string {
  return `${percentile < 10 ? percentile.toFixed(1) : Math.round(percentile)}%`;
}
