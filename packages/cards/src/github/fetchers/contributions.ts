/**
 * @module Contribution calendar of every year of an account, one GraphQL call per year in parallel.
 */
import { z } from 'zod';
import { dateToUtcMs, daysBetween, utcMsToDate } from '../../insights/calendar-date.js';
import { type FetchContext, HOUR_MS, keyPart, MINUTE_MS } from '../context.js';
import { CONTRIBUTION_CALENDAR_QUERY, CONTRIBUTION_YEARS_QUERY } from '../queries.js';

/** Years rarely change (a new year, a backdated commit): refetched twice a day. */
const YEARS_TTL_MS = 12 * HOUR_MS;
/** The current year changes with every contribution. */
const CURRENT_YEAR_TTL_MS = 10 * MINUTE_MS;
/** Past years only change through backdated or newly public contributions. */
const PAST_YEAR_TTL_MS = 24 * HOUR_MS;

const levelNames = [
  'NONE',
  'FIRST_QUARTILE',
  'SECOND_QUARTILE',
  'THIRD_QUARTILE',
  'FOURTH_QUARTILE',
] as const;

const yearsSchema = z.object({
  user: z.object({
    createdAt: z.string(),
    contributionsCollection: z.object({ contributionYears: z.array(z.number().int()) }),
  }),
});

const calendarSchema = z.object({
  user: z.object({
    contributionsCollection: z.object({
      totalCommitContributions: z.number().int(),
      restrictedContributionsCount: z.number().int(),
      contributionCalendar: z.object({
        totalContributions: z.number().int(),
        weeks: z.array(
          z.object({
            contributionDays: z.array(
              z.object({
                date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
                contributionCount: z.number().int().nonnegative(),
                contributionLevel: z.enum(levelNames),
              }),
            ),
          }),
        ),
      }),
    }),
  }),
});

/** One day of the calendar: level 0 (none) to 4 (fourth quartile), as GitHub colours it. */
export interface ContributionDay {
  date: string;
  count: number;
  level: 0 | 1 | 2 | 3 | 4;
}

/**
 * One year, stored compactly (a few KB instead of a few hundred objects): day `i` is
 * `start + i days`. Expand with `contributionDays`.
 */
export interface YearContributions {
  year: number;
  total: number;
  commits: number;
  /** Date of the first day (`YYYY-MM-DD`); null for an empty calendar. */
  start: string | null;
  counts: number[];
  levels: Array<ContributionDay['level']>;
}

export interface Contributions {
  createdAt: string;
  /** Oldest year first. */
  years: YearContributions[];
}

function yearRange(year: number): { from: string; to: string } {
  return { from: `${year}-01-01T00:00:00Z`, to: `${year}-12-31T23:59:59Z` };
}

export function fetchYearCalendar(context: FetchContext, login: string, year: number) {
  const currentYear = new Date(context.now()).getUTCFullYear();
  return context.cache.get<YearContributions>({
    key: `calendar:${keyPart(login)}:${year}`,
    ttlMs: year >= currentYear ? CURRENT_YEAR_TTL_MS : PAST_YEAR_TTL_MS,
    async load() {
      const raw = await context.client.graphql(
        CONTRIBUTION_CALENDAR_QUERY,
        { login, ...yearRange(year) },
        `user "${login}"`,
      );
      const collection = calendarSchema.parse(raw).user.contributionsCollection;
      const days = collection.contributionCalendar.weeks.flatMap((week) => week.contributionDays);
      const start = days.reduce<string | null>(
        (first, day) => (first === null || day.date < first ? day.date : first),
        null,
      );
      const counts: number[] = [];
      const levels: Array<ContributionDay['level']> = [];
      if (start !== null) {
        for (const day of days) {
          const index = daysBetween(start, day.date);
          counts[index] = day.contributionCount;
          levels[index] = levelNames.indexOf(day.contributionLevel) as ContributionDay['level'];
        }
      }
      // Days GitHub left out (none in practice) count as empty, never as holes.
      for (let index = 0; index < counts.length; index += 1) {
        counts[index] ??= 0;
        levels[index] ??= 0;
      }
      return {
        data: {
          year,
          total: collection.contributionCalendar.totalContributions,
          commits: collection.totalCommitContributions + collection.restrictedContributionsCount,
          start,
          counts,
          levels,
        },
      };
    },
  });
}

const DAY_MS = 86_400_000;

/** Every day of every year, oldest first. */
export function contributionDays(contributions: Contributions): ContributionDay[] {
  const days: ContributionDay[] = [];
  for (const year of contributions.years) {
    if (year.start === null) continue;
    const first = dateToUtcMs(year.start);
    year.counts.forEach((count, index) => {
      days.push({ date: utcMsToDate(first + index * DAY_MS), count, level: year.levels[index] ?? 0 });
    });
  }
  return days;
}

/** The last assembled answer per current-year calendar, so unchanged data keeps its identity. */
const assembled = new WeakMap<YearContributions, Contributions>();

function assemble(createdAt: string, calendars: YearContributions[]): Contributions {
  const newest = calendars.at(-1);
  const known = newest === undefined ? undefined : assembled.get(newest);
  if (
    known !== undefined &&
    known.createdAt === createdAt &&
    known.years.length === calendars.length &&
    known.years.every((year, index) => year === calendars[index])
  ) {
    return known;
  }
  const contributions = { createdAt, years: calendars };
  if (newest !== undefined) assembled.set(newest, contributions);
  return contributions;
}

/** Every contribution year of `login`, fetched in parallel once the years are known. */
export async function fetchContributions(context: FetchContext, login: string): Promise<Contributions> {
  const info = await context.cache.get({
    key: `years:${keyPart(login)}`,
    ttlMs: YEARS_TTL_MS,
    async load() {
      const raw = await context.client.graphql(CONTRIBUTION_YEARS_QUERY, { login }, `user "${login}"`);
      const user = yearsSchema.parse(raw).user;
      return { data: { createdAt: user.createdAt, years: user.contributionsCollection.contributionYears } };
    },
  });
  // The current year is always fetched: on 1 January the cached year list may not have it yet.
  const currentYear = new Date(context.now()).getUTCFullYear();
  const years = [...new Set([...info.years, currentYear])].sort((a, b) => a - b);
  const calendars = await Promise.all(years.map((year) => fetchYearCalendar(context, login, year)));
  return assemble(info.createdAt, calendars);
}
