/**
 * @module The /activity card: the 52-week contribution graph with month and weekday labels and
 * a Less/More legend, coloured with the theme's graph scale.
 */
import type { ContributionGrid } from '../insights/contribution-grid.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { formatCount, label, monthNames } from './github-marks.js';

interface ActivityInput {
  login: string;
  grid: ContributionGrid;
  total: number;
  hideLegend: boolean;
  hideLabels: boolean;
  theme: Theme;
}

const cell = 10;
const step = 13;
const weekdayLabels: Array<[number, string]> = [
  [1, 'Mon'],
  [3, 'Wed'],
  [5, 'Fri'],
];

export function renderActivity(input: ActivityInput): string {
  const { grid, theme } = input;
  const left = framePadding + (input.hideLabels ? 0 : 30);
  const top = 56 + (input.hideLabels ? 0 : 16);
  const width = left + grid.length * step - (step - cell) + framePadding;
  const cells = grid
    .flatMap((week, x) =>
      week.map((day, y) =>
        day === null
          ? ''
          : `<rect x="${left + x * step}" y="${top + y * step}" width="${cell}" height="${cell}" rx="2" fill="${theme.graph[day.level]}"><title>${day.count} on ${day.date}</title></rect>`,
      ),
    )
    .join('');
  const labels: string[] = [];
  if (!input.hideLabels) {
    let lastMonth = -1;
    grid.forEach((week, x) => {
      const first = week.find((day) => day !== null);
      if (!first) return;
      const month = Number(first.date.slice(5, 7)) - 1;
      // A month is labelled at its first full week, unless too close to the edge.
      if (month !== lastMonth && Number(first.date.slice(8, 10)) <= 7 && x < grid.length - 2) {
        labels.push(
          label(left + x * step, top - 6, monthNames[month] ?? '', { fill: theme.muted, size: 10 }),
        );
      }
      lastMonth = month;
    });
    for (const [row, name] of weekdayLabels) {
      labels.push(label(framePadding, top + row * step + 9, name, { fill: theme.muted, size: 10 }));
    }
  }
  let legend = '';
  let height = top + 7 * step + 12;
  if (!input.hideLegend) {
    const more = measureText('More', { size: 10 });
    let x = width - framePadding - more - 5 * step - 4;
    const y = height;
    legend = label(x - 6, y + 9, 'Less', { fill: theme.muted, size: 10, anchor: 'end' });
    for (const color of theme.graph) {
      legend += `<rect x="${round(x)}" y="${y}" width="${cell}" height="${cell}" rx="2" fill="${color}"/>`;
      x += step;
    }
    legend += label(x + 2, y + 9, 'More', { fill: theme.muted, size: 10 });
    height += 22;
  }
  const title = `${formatCount(input.total)} contributions in the last year`;
  return svgDocument({
    width,
    height,
    title: `${input.login}: ${title}`,
    body: `${cardFrame({ width, height, theme, title })}<g font-family="${fontFamily}">${labels.join('')}${legend}</g>${cells}`,
  });
}
