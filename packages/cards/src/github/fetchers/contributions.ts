/**
 * @module Contribution calendar of every year of an account, read in one aliased GraphQL request.
 */
import { z } from 'zod';
import { dateToUtcMs, daysBetween, utcMsToDate } from '../../insights/calendar-date.js';
import type { CacheEntry } from '../cache-store.js';
import { type FetchContext, HOUR_MS, keyPart, MINUTE_MS } from '../context.js';
import { contributionCalendarsQuery } from '../queries.js';

/** The set is refreshed as often as its current year changes: with every contribution. */
const CURRENT_YEAR_TTL_MS = 10 * MINUTE_MS;
/** Past years only change through backdated or newly public contributions. */
const PAST_YEARS_TTL_MS = 24 * HOUR_MS;

/**
 * First year read up front: GitHub's launch year. Earlier years (the founders' 2007 accounts,
 * backdated commits) are rare and read by a second request once `contributionYears` names them.
 */
export const FIRST_CALENDAR_YEAR = 2008;
/** Backdated commits can carry any date; years outside this range are ignored. */
const EARLIEST_YEAR = 1970;

const levelNames = [
  'NONE',
  'FIRST_QUARTILE',
  'SECOND_QUARTILE',
  'THIRD_QUARTILE',
  'FOURTH_QUARTILE',
] as const;

const collectionSchema = z.object({
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
});

/** The fixed fields of the answer; each year's collection sits under its alias (`y2024`). */
const answerSchema = z.object({
  user: z.looseObject({
    createdAt: z.string(),
    contributionsCollection: z.object({ contributionYears: z.array(z.number().int()) }),
  }),
});

/** One day of the calendar: level 0 (none) to 4 (fourth quartile), as GitHub colours it. */
interface ContributionDay {
  date: string;
  count: number;
  level: 0 | 1 | 2 | 3 | 4;
}

/**
 * One year, stored compactly (a few KB instead of a few hundred objects): day `i` is
 * `start + i days`. Expand with `contributionDays`.
 */
interface YearContributions {
  year: number;
  total: number;
  /** Commit contributions, private ones included when GitHub counts them for us. */
  commits: number;
  /** The private part of `commits` (GitHub's `restrictedContributionsCount`; absent in older cache entries). */
  privateCommits?: number;
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

/** One year's collection, stored compactly. */
function compactYear(year: number, collection: z.infer<typeof collectionSchema>): YearContributions {
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
    year,
    total: collection.contributionCalendar.totalContributions,
    commits: collection.totalCommitContributions + collection.restrictedContributionsCount,
    privateCommits: collection.restrictedContributionsCount,
    start,
    counts,
    levels,
  };
}

interface CalendarsAnswer {
  createdAt: string;
  contributionYears: number[];
  /** The calendar of a requested year, validated only when asked for (empty years are not). */
  calendar(year: number): YearContributions;
}

/** One GraphQL request: creation date, contribution years and the calendars of `years`. */
async function readCalendars(
  context: FetchContext,
  login: string,
  years: readonly number[],
): Promise<CalendarsAnswer> {
  const raw = await context.client.graphql(contributionCalendarsQuery(years), { login }, `user "${login}"`);
  const { user } = answerSchema.parse(raw);
  return {
    createdAt: user.createdAt,
    contributionYears: user.contributionsCollection.contributionYears,
    calendar: (year) => compactYear(year, collectionSchema.parse(user[`y${year}`])),
  };
}

/** What is cached per account: every year's calendar and when the past years were last read. */
interface CalendarSet {
  contributions: Contributions;
  pastYearsFetchedAt: number;
}

function yearsFrom(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

/**
 * Reads the set: every year from 2008 on in one request, or only the current year while the
 * cached past years are younger than a day (and from this same year: on 1 January the year
 * that just ended is read again in full). Years `contributionYears` names that the answer
 * lacks (backdated ones) take a second request.
 */
async function loadCalendarSet(
  context: FetchContext,
  login: string,
  previous: CacheEntry<CalendarSet> | undefined,
): Promise<CalendarSet> {
  const now = context.now();
  const currentYear = new Date(now).getUTCFullYear();
  const reused =
    previous !== undefined &&
    now - previous.data.pastYearsFetchedAt < PAST_YEARS_TTL_MS &&
    new Date(previous.fetchedAt).getUTCFullYear() === currentYear
      ? previous.data
      : undefined;
  const requested = reused === undefined ? yearsFrom(FIRST_CALENDAR_YEAR, currentYear) : [currentYear];
  const answer = await readCalendars(context, login, requested);
  // The current year is always kept: on 1 January GitHub may not list it yet.
  const wanted = [...new Set([...answer.contributionYears, currentYear])]
    .filter((year) => year >= EARLIEST_YEAR && year <= currentYear + 1)
    .sort((a, b) => a - b);
  const calendars = new Map<number, YearContributions>();
  for (const year of reused?.contributions.years ?? []) {
    if (year.year < currentYear) calendars.set(year.year, year);
  }
  for (const year of requested) {
    if (wanted.includes(year)) calendars.set(year, answer.calendar(year));
  }
  const missing = wanted.filter((year) => !calendars.has(year));
  if (missing.length > 0) {
    const backdated = await readCalendars(context, login, missing);
    for (const year of missing) calendars.set(year, backdated.calendar(year));
  }
  return {
    contributions: {
      createdAt: answer.createdAt,
      years: wanted.flatMap((year) => calendars.get(year) ?? []),
    },
    pastYearsFetchedAt: reused?.pastYearsFetchedAt ?? now,
  };
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

/**
 * Every contribution year of `login`, cached as one set per account. The cached object is
 * handed back unchanged between refreshes, so cards drawn from it stay memoised.
 */
export async function fetchContributions(context: FetchContext, login: string): Promise<Contributions> {
  const set = await context.cache.get<CalendarSet>({
    key: `contributions:${keyPart(login)}`,
    ttlMs: CURRENT_YEAR_TTL_MS,
    load: async (previous) => ({ data: await loadCalendarSet(context, login, previous) }),
  });
  return set.contributions;
}
