/**
 * @module The /stats card: stars, commits, pull requests, issues, contributed-to, and the grade
 * in a progress ring.
 */

import { siGithub } from '../brands/simple-icons.generated.js';
import type { Rank } from '../insights/rank.js';
import { round, svgDocument } from '../svg/document.js';
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
  /** Merged pull requests; a row is added when given. */
  mergedPullRequests?: number;
  /** Share of pull requests merged (a row "Merged PRs Percentage", drawn `66.67%`) when given. */
  mergedPercentage?: number;
  /** Discussions started and answered; a row each when given. */
  discussionsStarted?: number;
  discussionsAnswered?: number;
  /** Replaces the title; `null` draws no title row. */
  title?: string | null;
  /** The title for the (shortened) display name when `title` is not given; default "<name>'s GitHub Stats". */
  titleFor?: (name: string) => string;
  /** Smallest card width, px. */
  minWidth?: number;
  /** Distance between rows, px; default 25. */
  rowHeight?: number;
  /** Corner radius, px. */
  radius?: number;
  hideBorder?: boolean;
  /** What the ring shows: the grade (default), the percentile, or the GitHub mark. */
  rankLabel?: 'level' | 'percentile' | 'github';
  /** Rows' labels and values in bold (default); false draws them in regular weight. */
  boldText?: boolean;
  /** Row labels replacing ours (a translation); rows not named keep ours. */
  labels?: Partial<Record<StatsRow, string>>;
  /** How values are written; default `formatCount`. */
  formatValue?: (value: number) => string;
}

export type StatsRow =
  | 'stars'
  | 'commits'
  | 'prs'
  | 'prs_merged'
  | 'prs_merged_percentage'
  | 'reviews'
  | 'issues'
  | 'discussions_started'
  | 'discussions_answered'
  | 'contribs';

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
  const ownTitle = input.titleFor?.(name) ?? `${name}'s GitHub Stats`;
  const title = input.title === undefined ? ownTitle : input.title;
  const format = input.formatValue ?? formatCount;
  const rowHeight = input.rowHeight ?? defaultRowHeight;
  const firstRow = title === null ? firstRowWithoutTitle : firstRowWithTitle;
  const count = (value: number | undefined) => (value === undefined ? undefined : format(value));
  // github-readme-stats' order, with its optional rows where it puts them.
  const allRows: Array<[StatsRow, IconName, string, string | undefined]> = [
    ['stars', 'star', 'Total Stars Earned', count(input.stars)],
    [
      'commits',
      'commit',
      input.allCommits ? 'Total Commits (all time)' : 'Total Commits (last year)',
      count(input.commits),
    ],
    ['prs', 'pull-request', 'Total Pull Requests', count(input.pullRequests)],
    ['prs_merged', 'merge', 'Total PRs Merged', count(input.mergedPullRequests)],
    [
      'prs_merged_percentage',
      'merge',
      'Merged PRs Percentage',
      input.mergedPercentage === undefined ? undefined : `${input.mergedPercentage.toFixed(2)}%`,
    ],
    ['reviews', 'pull-request', 'Total Reviews', count(input.reviews)],
    ['issues', 'issue', 'Total Issues', count(input.issues)],
    ['discussions_started', 'discussion', 'Total Discussions Started', count(input.discussionsStarted)],
    ['discussions_answered', 'discussion', 'Total Discussions Answered', count(input.discussionsAnswered)],
    ['contribs', 'repo', 'Contributed to (last year)', count(input.contributedTo)],
  ];
  const rows = allRows
    .filter(([key, , , value]) => value !== undefined && !input.hide?.has(key))
    .map(([key, mark, text, value]): [IconName, string, string] => [
      mark,
      input.labels?.[key] ?? text,
      value!,
    ]);
  const bold = input.boldText ?? true;
  const labelX = framePadding + (input.showIcons ? 24 : 0);
  const labelWidth = Math.max(0, ...rows.map(([, text]) => measureText(`${text}:`, { size: 14, bold })));
  const valueX = labelX + labelWidth + valueGap;
  const valueWidth = Math.max(0, ...rows.map(([, , value]) => measureText(value, { size: 14, bold })));
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
      return `${mark}${label(labelX, y, `${text}:`, { fill: theme.text, bold })}${label(valueX, y, value, { fill: theme.text, bold })}`;
    })
    .join('');
  let ring = '';
  if (input.rank) {
    const cx = width - framePadding - 55;
    const cy = firstRow + Math.max(rows.length * rowHeight, 118 - 8) / 2 - 12;
    const percent = formatPercent(input.rank.percentile);
    const { level } = input.rank;
    const inside =
      input.rankLabel === 'github'
        ? githubMark(cx, cy, theme.title)
        : label(cx, cy + 8, input.rankLabel === 'percentile' ? percent : level, {
            fill: theme.title,
            size: input.rankLabel === 'percentile' ? 18 : 24,
            bold: true,
            anchor: 'middle',
          });
    // What the ring does not show is written under it.
    const under =
      input.rankLabel === 'level' || input.rankLabel === undefined ? `top ${percent}` : `grade ${level}`;
    ring = `${progressRing(cx, cy, 40, (100 - input.rank.percentile) / 100, theme.ring)}${inside}${label(cx, cy + 62, under, { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  }
  const description = `${rows.map(([, text, value]) => `${text}: ${value}`).join(', ')}${input.rank ? `, grade ${input.rank.level}` : ''}`;
  return svgDocument({
    width,
    height,
    title: title ?? ownTitle,
    description,
    body: `${cardFrame({ width, height, theme, title: title ?? undefined, hideBorder: input.hideBorder, radius: input.radius })}<g font-family="${fontFamily}" font-size="14">${body}${ring}</g>`,
  });
}

/** Size of the GitHub mark inside the ring, px. */
const markSize = 30;

/** The GitHub mark (simple-icons' path on a 24 px grid) centred on (cx, cy). */
function githubMark(cx: number, cy: number, color: string): string {
  const scale = round(markSize / 24);
  return `<path transform="translate(${round(cx - markSize / 2)} ${round(cy - markSize / 2)}) scale(${scale})" d="${siGithub.path}" fill="${color}"/>`;
}

function formatPercent(percentile: number): string {
  return `${percentile < 10 ? percentile.toFixed(1) : Math.round(percentile)}%`;
}
