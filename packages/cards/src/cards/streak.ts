/**
 * @module The /streak card: total contributions, current streak (in a ring) and longest streak,
 * each with its dates; optionally the recent weeks as a small calendar.
 */
import type { ContributionGrid } from '../insights/contribution-grid.js';
import type { StreakRange, StreakSummary } from '../insights/streak.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { formatCount, formatDay, icon, label, progressRing } from './github-marks.js';

interface StreakInput {
  login: string;
  summary: StreakSummary;
  today: string;
  /** Recent weeks for `showCalendar`, or null. */
  calendar: ContributionGrid | null;
  hideBorder: boolean;
  theme: Theme;
  /** Sections left out. */
  hide?: ReadonlySet<StreakSection>;
  /** Card width, px; default 495; widened when a section's text needs more. */
  width?: number;
  /** Streaks counted in weeks (labels say so). */
  weekly?: boolean;
  /** Labels replacing ours (a translation): the three sections and "Present". */
  labels?: Partial<Record<StreakSection | 'present', string>>;
  /** How the three numbers are written; default `formatCount`. */
  formatNumber?: (value: number) => string;
  /** How dates are written; default `formatDay` ("12 Mar 2024"). */
  formatDate?: (date: string) => string;
  /** Colours of single elements; default from the theme. */
  colors?: StreakColors;
  /** Corner radius, px. */
  radius?: number;
  /** A small note at the bottom left (the days a streak skips), in `color`. */
  note?: { text: string; color?: string | undefined };
  /** Card height, px, never less than the content's; the content is centred down. */
  height?: number;
}

export type StreakSection = 'total' | 'current' | 'longest';

/** github-readme-streak-stats' per-element colours. */
interface StreakColors {
  stroke?: string;
  fire?: string;
  currentNumber?: string;
  currentLabel?: string;
  sideNumbers?: string;
  sideLabels?: string;
  dates?: string;
}

const defaultWidth = 495;
/** Space kept on each side of a section's widest text, px. */
const sectionPadding = 10;
const columnsTop = 48;
const cell = 11;
const gap = 3;

function rangeText(range: StreakRange, format: (date: string) => string): string {
  if (range.length === 0) return 'No streak';
  return range.start === range.end ? format(range.start) : `${format(range.start)} – ${format(range.end)}`;
}

export function renderStreak(input: StreakInput): string {
  const { summary, theme } = input;
  const format = input.formatDate ?? formatDay;
  const formatNumber = input.formatNumber ?? formatCount;
  const colors = input.colors ?? {};
  const period = input.weekly ? 'Week' : '';
  const since = summary.firstContribution
    ? `${format(summary.firstContribution)} – ${input.labels?.present ?? 'Present'}`
    : 'No contributions yet';
  const sideNumbers = colors.sideNumbers ?? theme.title;
  const sideLabels = colors.sideLabels ?? theme.text;
  const dates = colors.dates ?? theme.muted;
  const texts: Record<StreakSection, { count: string; label: string; range: string }> = {
    total: {
      count: formatNumber(summary.total),
      label: input.labels?.total ?? 'Total Contributions',
      range: since,
    },
    current: {
      count: formatNumber(summary.current.length),
      label: input.labels?.current ?? `Current ${period}${period && ' '}Streak`,
      range: rangeText(summary.current, format),
    },
    longest: {
      count: formatNumber(summary.longest.length),
      label: input.labels?.longest ?? `Longest ${period}${period && ' '}Streak`,
      range: rangeText(summary.longest, format),
    },
  };
  const drawSection: Record<StreakSection, (cx: number) => string> = {
    total: (cx) =>
      `${label(cx, columnsTop + 50, texts.total.count, { fill: sideNumbers, size: 28, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 84, texts.total.label, { fill: sideLabels, size: 14, anchor: 'middle' })}${label(cx, columnsTop + 108, texts.total.range, { fill: dates, size: 11, anchor: 'middle' })}`,
    current: (cx) =>
      `${progressRing(cx, columnsTop + 38, 38, 1, theme.ring, 5)}<circle cx="${round(cx)}" cy="${columnsTop}" r="12" fill="${theme.background}"/>${icon('flame', cx - 8, columnsTop - 9, colors.fire ?? theme.ring)}${label(cx, columnsTop + 48, texts.current.count, { fill: colors.currentNumber ?? theme.title, size: 28, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 100, texts.current.label, { fill: colors.currentLabel ?? theme.ring, size: 14, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 122, texts.current.range, { fill: dates, size: 11, anchor: 'middle' })}`,
    longest: (cx) =>
      `${label(cx, columnsTop + 50, texts.longest.count, { fill: sideNumbers, size: 28, bold: true, anchor: 'middle' })}${label(cx, columnsTop + 84, texts.longest.label, { fill: sideLabels, size: 14, anchor: 'middle' })}${label(cx, columnsTop + 108, texts.longest.range, { fill: dates, size: 11, anchor: 'middle' })}`,
  };
  const sections = (['total', 'current', 'longest'] as const).filter((section) => !input.hide?.has(section));
  // Never narrower than its content: each section's column holds its widest text (labels
  // are measured bold, as the current streak's is drawn), so no text crosses a divider.
  const widestText = Math.max(
    0,
    ...sections.map((section) =>
      Math.max(
        measureText(texts[section].count, { size: 28, bold: true }),
        measureText(texts[section].label, { size: 14, bold: true }),
        measureText(texts[section].range, { size: 11 }),
      ),
    ),
  );
  const width = Math.ceil(
    Math.max(input.width ?? defaultWidth, sections.length * (widestText + 2 * sectionPadding)),
  );
  const column = width / Math.max(1, sections.length);
  const [total = '', current = '', longest = ''] = sections.map((section, index) =>
    drawSection[section](column * (index + 0.5)),
  );
  const dividerPath = sections
    .slice(1)
    .map((_, index) => `M${round(column * (index + 1))} 40v120`)
    .join('');
  const dividers = dividerPath ? `<path d="${dividerPath}" stroke="${colors.stroke ?? theme.border}"/>` : '';
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
  const note = input.note
    ? label(framePadding, height - 6, input.note.text, {
        fill: input.note.color ?? theme.muted,
        size: 10,
        maxWidth: width - 2 * framePadding,
      })
    : '';
  const contentHeight = height;
  height = Math.max(contentHeight, Math.round(input.height ?? 0));
  const shift = (height - contentHeight) / 2;
  const content = `${dividers}<g font-family="${fontFamily}">${total}${current}${longest}${note}</g>${calendar}`;
  const unit = input.weekly ? 'weeks' : 'days';
  const description = `Total contributions ${summary.total}; current streak ${summary.current.length} ${unit} (${rangeText(summary.current, format)}); longest streak ${summary.longest.length} ${unit} (${rangeText(summary.longest, format)}).`;
  return svgDocument({
    width,
    height,
    title: `${input.login}'s contribution streak`,
    description,
    body: `${cardFrame({ width, height, theme, hideBorder: input.hideBorder, radius: input.radius })}${shift > 0 ? `<g transform="translate(0 ${round(shift)})">${content}</g>` : content}`,
  });
}
