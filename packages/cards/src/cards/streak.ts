/**
 * @module The /streak card: total contributions, current streak (in a ring) and longest streak,
 * each with its dates; optionally the recent weeks as a small calendar.
 */
import type { ContributionGrid } from '../insights/contribution-grid.js';
import type { StreakRange, StreakSummary } from '../insights/streak.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { formatCount, formatDay, icon, label, progressRing } from './github-marks.js';

export interface StreakInput {
  login: string;
  summary: StreakSummary;
  today: string;
  /** Recent weeks for `showCalendar`, or null. */
  calendar: ContributionGrid | null;
  hideBorder: boolean;
  theme: Theme;
}

const width = 495;
const columnsTop = 48;
const cell = 11;
const gap = 3;

function rangeText(range: StreakRange): string {
  if (range.length === 0) return 'No streak';
  return range.start === range.end
    ? formatDay(range.start)
    : `${formatDay(range.start)} – ${formatDay(range.end)}`;
}

export function renderStreak(input: StreakInput): string {
  const { summary, theme } = input;
  const column = width / 3;
  const since = summary.firstContribution
    ? `${formatDay(summary.firstContribution)} – Present`
    : 'No contributions yet';
  const total = `${label(column / 2, columnsTop + 50, formatCount(summary.total), { fill: theme.title, size: 28, bold: true, anchor: 'middle' })}${label(column / 2, columnsTop + 84, 'Total Contributions', { fill: theme.text, size: 14, anchor: 'middle' })}${label(column / 2, columnsTop + 108, since, { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  const cx = column * 1.5;
  const current = `${progressRing(cx, columnsTop + 38, 38, 1, theme.ring, 5)}<circle cx="${round(cx)}" cy="${columnsTop}" r="12" fill="${theme.background}"/>${icon('flame', cx - 8, columnsTop - 9, theme.ring)}${label(cx, columnsTop + 48, formatCount(summary.current.length), { fill: theme.title, size: 28, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 100, 'Current Streak', { fill: theme.ring, size: 14, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 122, rangeText(summary.current), { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  const longest = `${label(column * 2.5, columnsTop + 50, formatCount(summary.longest.length), { fill: theme.title, size: 28, bold: true, anchor: 'middle' })}${label(column * 2.5, columnsTop + 84, 'Longest Streak', { fill: theme.text, size: 14, anchor: 'middle' })}${label(column * 2.5, columnsTop + 108, rangeText(summary.longest), { fill: theme.muted, size: 11, anchor: 'middle' })}`;
  const dividers = `<path d="M${round(column)} 40v120M${round(column * 2)} 40v120" stroke="${theme.border}"/>`;
  let height = 190;
  let calendar = '';
  if (input.calendar) {
    const gridWidth = input.calendar.length * (cell + gap) - gap;
    const left = (width - gridWidth) / 2;
    const top = height - 8;
    calendar = input.calendar
      .flatMap((week, x) =>
        week.map((day, y) =>
          day === null
            ? ''
            : `<rect x="${round(left + x * (cell + gap))}" y="${top + y * (cell + gap)}" width="${cell}" height="${cell}" rx="2" fill="${theme.graph[day.level]}"${day.date === input.today ? ` stroke="${theme.ring}"` : ''}/>`,
        ),
      )
      .join('');
    height = top + 7 * (cell + gap) + 14;
  }
  const description = `Total contributions ${summary.total}; current streak ${summary.current.length} days (${rangeText(summary.current)}); longest streak ${summary.longest.length} days (${rangeText(summary.longest)}).`;
  return svgDocument({
    width,
    height,
    title: `${input.login}'s contribution streak`,
    description,
    body: `${cardFrame({ width, height, theme, hideBorder: input.hideBorder })}${dividers}<g font-family="${fontFamily}">${total}${current}${longest}</g>${calendar}`,
  });
}
