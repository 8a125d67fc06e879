/**
 * @module The /stars card: the star curve of a repository over time and three metrics (total,
 * stars in the last 30 days, growth).
 */
import type { StarMetrics } from '../insights/star-metrics.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { formatCount, label, monthNames } from './github-marks.js';

interface StarsInput {
  repository: string;
  points: ReadonlyArray<readonly [number, number]>;
  metrics: StarMetrics;
  sampled: boolean;
  theme: Theme;
}

const width = 500;
const chartTop = 98;
const chartHeight = 120;
/** Drawn points at most: more adds bytes, not detail, at this width. */
const maxPoints = 160;

function dateLabel(ms: number): string {
  const date = new Date(ms);
  return `${monthNames[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** Keeps every n-th point plus the last, so the curve ends at today's total. */
function thin(points: ReadonlyArray<readonly [number, number]>): ReadonlyArray<readonly [number, number]> {
  if (points.length <= maxPoints) return points;
  const every = Math.ceil(points.length / maxPoints);
  return points.filter((_, index) => index % every === 0 || index === points.length - 1);
}

export function renderStars({ repository, points, metrics, sampled, theme }: StarsInput): string {
  const left = framePadding + 44;
  const right = width - framePadding;
  const bottom = chartTop + chartHeight;
  const drawn = thin(points);
  const first = drawn[0]?.[0] ?? 0;
  const last = drawn.at(-1)?.[0] ?? first + 1;
  const maxStars = Math.max(1, ...drawn.map(([, stars]) => stars));
  const xOf = (time: number) => left + ((time - first) / (last - first || 1)) * (right - left);
  const yOf = (stars: number) => bottom - (stars / maxStars) * chartHeight;
  const line = drawn
    .map(([time, stars], index) => `${index === 0 ? 'M' : 'L'}${round(xOf(time))} ${round(yOf(stars))}`)
    .join('');
  const area =
    drawn.length > 0 ? `${line}L${round(xOf(last))} ${bottom}L${round(xOf(first))} ${bottom}Z` : '';
  const grid = [0, 0.5, 1]
    .map((share) => {
      const y = bottom - share * chartHeight;
      return `<path d="M${left} ${round(y)}H${right}" stroke="${theme.border}" stroke-dasharray="3 3"/>${label(left - 6, y + 4, formatCount(Math.round(share * maxStars)), { fill: theme.muted, size: 10, anchor: 'end' })}`;
    })
    .join('');
  const growth =
    metrics.growthPercent === null
      ? '—'
      : `${metrics.growthPercent >= 0 ? '+' : ''}${metrics.growthPercent.toFixed(1)}%`;
  const stats: Array<[string, string]> = [
    [formatCount(metrics.total), 'stars'],
    [`+${formatCount(metrics.lastThirtyDays)}`, 'last 30 days'],
    [growth, '30-day growth'],
  ];
  const statMarkup = stats
    .map(([value, caption], index) => {
      const x = framePadding + index * 150;
      return `${label(x, 62, value, { fill: theme.title, size: 18, bold: true })}${label(x, 76, caption, { fill: theme.muted, size: 11 })}`;
    })
    .join('');
  const axis = `${label(left, bottom + 16, dateLabel(first), { fill: theme.muted, size: 10 })}${label(right, bottom + 16, dateLabel(last), { fill: theme.muted, size: 10, anchor: 'end' })}`;
  const height = bottom + 30;
  const note = sampled ? ' (sampled)' : '';
  return svgDocument({
    width,
    height,
    title: `Star history of ${repository}`,
    description: `${metrics.total} stars, ${metrics.lastThirtyDays} in the last 30 days, growth ${growth}${note}`,
    body: `${cardFrame({ width, height, theme, title: `★ ${repository}` })}<g font-family="${fontFamily}">${statMarkup}${grid}${axis}</g><path d="${area}" fill="${theme.accent}" fill-opacity=".18"/><path d="${line}" fill="none" stroke="${theme.accent}" stroke-width="2" stroke-linejoin="round"/>`,
  });
}
