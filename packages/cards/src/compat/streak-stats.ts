/**
 * @module github-readme-streak-stats drop-in: `/streak?user=...` (the old service answered at
 * the root of its host) with its colour parameters, `hide_border`, `border_radius`,
 * `date_format`, `mode=weekly`, `exclude_days`, the three `hide_*` sections, `card_width`,
 * `short_numbers`, `starting_year` and `timezone` ("today" in that IANA zone, as theirs; 400
 * when it is not one, as theirs).
 */
import { renderOnce } from '../cards/render-memo.js';
import { renderStreak, type StreakSection } from '../cards/streak.js';
import { githubCardCache, timezoneParam, usernameParam } from '../endpoints/github-params.js';
import { contributionDays } from '../github/fetchers/contributions.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { todayIn } from '../insights/calendar-date.js';
import { computeStreaks } from '../insights/streak.js';
import { getTheme } from '../themes/index.js';
import { dateFormatter, readDateFormat } from './date-format.js';
import { drawingKey } from './drawing-key.js';
import { lenient, lenientColor, lenientFlag, lenientNumber, lenientText, readList } from './lenient.js';
import { intlTag, type LocaleName, labelsOf, readLocale } from './locales.js';
import { lenientBackground, themeWith, themeWithBackground, withGradient } from './palette.js';
import { foreignTheme } from './themes.js';

const weekdayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** `* Excluding Sun, Sat`: the days in week order. */
function excludedDaysNote(days: ReadonlySet<number>): string {
  const names = [...days].sort().map((day) => weekdayNames[day]!);
  return `* Excluding ${names.map((name) => name[0]!.toUpperCase() + name.slice(1)).join(', ')}`;
}

/** `Sun,Sat` -> {0, 6}; unknown names are ignored. */
function readWeekdays(raw: string): ReadonlySet<number> {
  const days = readList(raw, 7).map((name) => weekdayNames.indexOf(name.slice(0, 3).toLowerCase()));
  return new Set(days.filter((day) => day >= 0));
}

/** Dates in a locale's words and order (`10. März 2024`, `2024年3月10日`), as their default. */
function localDate(locale: LocaleName): (date: string) => string {
  const format = new Intl.DateTimeFormat(intlTag(locale), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (date) => format.format(Date.parse(`${date}T00:00:00Z`));
}

/** `short_numbers`: 1,500 is 1.5K and 2,300,000 is 2.3M; below 1,000 as is. */
function shortNumber(value: number): string {
  const [divisor, suffix] = value >= 1_000_000 ? [1_000_000, 'M'] : value >= 1_000 ? [1_000, 'K'] : [1, ''];
  return `${Number((value / divisor).toFixed(1)).toString()}${suffix}`;
}

/** `starting_year`: the days from 1 January of that year on (every day when not given). */
function daysFrom<Day extends { date: string }>(days: readonly Day[], year: number | null): readonly Day[] {
  if (year === null) return days;
  const first = `${String(year).padStart(4, '0')}-01-01`;
  return days.filter((day) => day.date >= first);
}

/** Their default theme is a white card with orange accents: our `coral`. */
function streakTheme(name: string | null) {
  return name === null || name.toLowerCase() === 'default' ? 'coral' : foreignTheme(name, 'coral');
}

export const streakStatsCard = defineEndpoint({
  path: '/streak',
  summary: 'github-readme-streak-stats drop-in.',
  cache: githubCardCache,
  pure: false,
  params: {
    user: usernameParam,
    theme: lenientText('Theme name of github-readme-streak-stats, mapped to the closest of ours.', 40),
    hide_border: lenientFlag('Draw no border.', false),
    border_radius: lenientNumber('Corner radius, px.', 0, 40),
    background: lenientBackground('Background: hex colour or `angle,color1,color2,...` gradient.'),
    border: lenientColor('Border colour.'),
    stroke: lenientColor('Divider colour.'),
    ring: lenientColor('Ring colour.'),
    fire: lenientColor('Flame colour.'),
    currStreakNum: lenientColor('Current streak number colour.'),
    sideNums: lenientColor('Total and longest numbers colour.'),
    currStreakLabel: lenientColor('Current streak label colour.'),
    sideLabels: lenientColor('Total and longest labels colour.'),
    dates: lenientColor('Date colour.'),
    excludeDaysLabel: lenientColor('Colour of the note naming the excluded days.'),
    date_format: lenient<string | null>('PHP date letters, e.g. `M j[, Y]`.', readDateFormat, null),
    mode: lenient<'daily' | 'weekly'>(
      'daily or weekly.',
      (raw) => (raw === 'weekly' || raw === 'daily' ? raw : undefined),
      'daily',
    ),
    exclude_days: lenient<ReadonlySet<number>>(
      'Weekdays that do not break a streak, e.g. `Sun,Sat`.',
      readWeekdays,
      new Set(),
    ),
    hide_total_contributions: lenientFlag('Leave out the total.', false),
    hide_current_streak: lenientFlag('Leave out the current streak.', false),
    hide_longest_streak: lenientFlag('Leave out the longest streak.', false),
    card_width: lenientNumber('Card width, px.', 300, 1000),
    card_height: lenientNumber('Card height, px (never less than the content).', 170, 1000),
    locale: lenient<LocaleName | null>(
      'Language of the labels and dates (de, fr, ja, zh, ...).',
      readLocale,
      null,
    ),
    short_numbers: lenientFlag('Numbers from 1,000 on written 1.5K, 2.3M.', false),
    starting_year: lenientNumber('Count contributions from 1 January of this year on.', 1970, 9999),
    timezone: timezoneParam,
  },
  async render(values, { services }) {
    const contributions = await forCard(gitHubDataFor(services).contributions(values.user));
    const today = todayIn(services.now().getTime(), values.timezone);
    const { user, exclude_days } = values;
    return renderOnce(contributions, `streak-stats|${today}|${drawingKey(values)}`, () => {
      const hide = new Set<StreakSection>();
      if (values.hide_total_contributions) hide.add('total');
      if (values.hide_current_streak) hide.add('current');
      if (values.hide_longest_streak) hide.add('longest');
      const base = themeWith(getTheme(streakTheme(values.theme)), {
        border: values.border,
        ring: values.ring,
      });
      const weekly = values.mode === 'weekly';
      const labels = labelsOf(values.locale);
      return withGradient(
        renderStreak({
          login: user,
          summary: computeStreaks(daysFrom(contributionDays(contributions), values.starting_year), today, {
            weekly,
            excludedWeekdays: exclude_days,
          }),
          today,
          calendar: null,
          hideBorder: values.hide_border,
          theme: themeWithBackground(base, values.background),
          hide,
          width: values.card_width ?? undefined,
          height: values.card_height ?? undefined,
          // Their note, drawn in daily mode only (a week has every weekday).
          note:
            exclude_days.size > 0 && !weekly
              ? { text: excludedDaysNote(exclude_days), color: values.excludeDaysLabel ?? undefined }
              : undefined,
          weekly,
          formatNumber: values.short_numbers ? shortNumber : undefined,
          labels: {
            total: labels.totalContributions,
            current: weekly ? labels.weekStreak : labels.currentStreak,
            longest: weekly ? labels.longestWeekStreak : labels.longestStreak,
            present: labels.present,
          },
          formatDate: values.date_format
            ? dateFormatter(values.date_format, Number(today.slice(0, 4)))
            : values.locale
              ? localDate(values.locale)
              : undefined,
          radius: values.border_radius ?? undefined,
          colors: {
            stroke: values.stroke ?? undefined,
            fire: values.fire ?? undefined,
            currentNumber: values.currStreakNum ?? undefined,
            currentLabel: values.currStreakLabel ?? undefined,
            sideNumbers: values.sideNums ?? undefined,
            sideLabels: values.sideLabels ?? undefined,
            dates: values.dates ?? undefined,
          },
        }),
        values.background,
      );
    });
  },
});
