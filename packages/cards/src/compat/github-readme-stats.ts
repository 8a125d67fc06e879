/**
 * @module Drop-in URLs of github-readme-stats: `/api` (stats), `/api/top-langs`, `/api/pin`,
 * and a clear card for `/api/gist` and `/api/wakatime`, with its snake_case parameters and
 * theme names mapped onto our cards. Every parameter is lenient (ignored when unusable) except
 * the account and repository names, without which no card can be drawn.
 */
import { renderLanguages } from '../cards/languages.js';
import { renderOnce } from '../cards/render-memo.js';
import { renderRepo } from '../cards/repo.js';
import { renderShape } from '../cards/shapes.js';
import { renderStats, type StatsRow } from '../cards/stats.js';
import { githubCardCache, usernameParam } from '../endpoints/github-params.js';
import { statsCardFigures, statsFigures } from '../endpoints/stats.js';
import type { LanguageSize } from '../github/fetchers/languages.js';
import type { UserStats } from '../github/fetchers/user-stats.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import type { CachePolicy } from '../http/cache-control.js';
import { CardError } from '../http/card-error.js';
import { defineEndpoint } from '../http/endpoint.js';
import { languageShares } from '../insights/language-shares.js';
import { customParam, type ParamValues } from '../params/index.js';
import { getTheme, type Theme } from '../themes/index.js';
import { drawingKey } from './drawing-key.js';
import {
  cachePolicyFor,
  lenient,
  lenientColor,
  lenientFlag,
  lenientList,
  lenientNumber,
  lenientText,
} from './lenient.js';
import { type CardLabels, type LocaleName, labelsOf, readLocale } from './locales.js';
import { lenientBackground, themeWith, themeWithBackground, withGradient } from './palette.js';
import { foreignTheme } from './themes.js';

/** Parameters every github-readme-stats card reads (colours, theme, frame, title). */
const commonParams = {
  theme: lenientText('Theme name of github-readme-stats, mapped to the closest of ours.', 40),
  title_color: lenientColor('Title colour (hex).'),
  text_color: lenientColor('Text colour (hex).'),
  icon_color: lenientColor('Icon colour (hex).'),
  border_color: lenientColor('Border colour (hex).'),
  ring_color: lenientColor('Rank ring colour (hex).'),
  bg_color: lenientBackground('Background: hex colour or `angle,color1,color2,...` gradient.'),
  hide_border: lenientFlag('Draw no border.', false),
  hide_title: lenientFlag('Draw no title.', false),
  custom_title: lenientText('Replaces the title.', 80),
  card_width: lenientNumber('Card width, px (never narrower than the content).', 100, 1000),
  border_radius: lenientNumber('Corner radius, px.', 0, 40),
  disable_animations: lenientFlag('Our cards are still images: accepted, nothing to disable.', false),
  locale: lenient<LocaleName | null>(
    'Language of the labels (de, fr, ja, zh-cn, ...); English otherwise.',
    readLocale,
    null,
  ),
};

type CommonValues = ParamValues<typeof commonParams>;

/** Their default theme is a white card with a blue title: our `transparent` is the closest. */
const defaultTheme = 'transparent';

/** The theme of a github-readme-stats query: their theme name mapped, then each colour given. */
function cardTheme(values: CommonValues): Theme {
  const base = getTheme(foreignTheme(values.theme, defaultTheme));
  const colored = themeWith(base, {
    title: values.title_color,
    text: values.text_color,
    icon: values.icon_color,
    border: values.border_color,
    ring: values.ring_color,
  });
  return themeWithBackground(colored, values.bg_color);
}

/** The title option of a card: hidden, replaced, translated, or the card's own (`undefined`). */
function cardTitle(values: CommonValues, translated?: string): string | null | undefined {
  if (values.hide_title) return null;
  return values.custom_title ?? translated;
}

/** `number_format`: `short` writes 1.2k, `long` every digit; not given: our own format. */
const numberFormats = {
  short: (value: number) => (value >= 1000 ? `${(Math.round(value / 100) / 10).toString()}k` : String(value)),
  long: (value: number) => Math.round(value).toLocaleString('en-US'),
} as const;

/** Rows `hide` may leave out (the optional rows are only drawn when `show` names them). */
const statsRows = new Set<StatsRow>(['stars', 'commits', 'prs', 'issues', 'contribs']);

/**
 * The row labels of a locale; the commits row says "last year" unless it counts every year,
 * or names the year `commits_year` counts ("Total Commits (2024)", as theirs).
 */
function statsLabels(
  labels: Partial<CardLabels>,
  allCommits: boolean,
  year: number | null,
): Partial<Record<StatsRow, string>> {
  const { commits, lastYear } = labels;
  return {
    stars: labels.stars,
    commits:
      year !== null && !allCommits
        ? `${commits ?? 'Total Commits'} (${year})`
        : commits && lastYear && !allCommits
          ? `${commits} (${lastYear})`
          : commits,
    prs: labels.prs,
    prs_merged: labels.prsMerged,
    prs_merged_percentage: labels.prsMergedPercentage,
    reviews: labels.reviews,
    issues: labels.issues,
    discussions_started: labels.discussionsStarted,
    discussions_answered: labels.discussionsAnswered,
    contribs: labels.contribs,
  };
}

/** Percentage of pull requests merged; 0 for an account without pull requests. */
function mergedShare(stats: UserStats): number {
  return stats.pullRequests === 0 ? 0 : (stats.mergedPullRequests / stats.pullRequests) * 100;
}

/** Earliest year `commits_year` takes: backdated commits go back to the Unix epoch. */
const earliestCommitsYear = 1970;

/**
 * `commits_year`: a year from 1970 to the current one; anything else is a 400 naming it, given
 * by `render` (`commitsYearOf`) since the current year is the app's clock (`services.now`).
 */
const commitsYearParam = customParam<string | null>(
  {
    kind: 'number',
    required: false,
    min: earliestCommitsYear,
    description: 'Count the commits of this year (e.g. 2024) instead of the last 12 months.',
  },
  (raw) => raw.trim(),
  null,
);

/** The year `commits_year` names, or a 400 naming it when it is none up to `now`'s year. */
function commitsYearOf(raw: string | null, now: Date): number | null {
  if (raw === null) return null;
  const year = /^\d{4}$/.test(raw) ? Number(raw) : Number.NaN;
  const current = now.getUTCFullYear();
  if (year >= earliestCommitsYear && year <= current) return year;
  throw new CardError(
    400,
    `commits_year must be a year from ${earliestCommitsYear} to ${current}, such as 2024`,
  );
}

/** Commits of `year` in the account's contribution years, the private ones unless left out. */
async function commitsOfYear(
  services: Parameters<typeof gitHubDataFor>[0],
  username: string,
  year: number,
  countPrivate: boolean,
): Promise<number> {
  const { years } = await forCard(gitHubDataFor(services).contributions(username));
  const found = years.find((entry) => entry.year === year);
  return found ? found.commits - (countPrivate ? 0 : (found.privateCommits ?? 0)) : 0;
}

/** Stars of the account less those of the repositories `exclude_repo` names (any case). */
function starsWithout(stats: UserStats, excluded: readonly string[]): number {
  if (excluded.length === 0) return stats.stars;
  const names = new Set(excluded.map((name) => name.toLowerCase()));
  return stats.repositoryStars.reduce(
    (sum, repository) => (names.has(repository.name.toLowerCase()) ? sum - repository.stars : sum),
    stats.stars,
  );
}

export const githubReadmeStatsCard = defineEndpoint({
  path: '/api',
  summary: 'github-readme-stats drop-in: the stats card.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    show_icons: lenientFlag('Show an icon before each line.', false),
    hide: lenientList('Rows to leave out: stars, commits, prs, issues, contribs.'),
    show: lenientList(
      'Extra rows: reviews, prs_merged, prs_merged_percentage, discussions_started, discussions_answered.',
    ),
    hide_rank: lenientFlag('Leave out the grade ring.', false),
    rank_icon: lenient<'level' | 'percentile' | 'github'>(
      'In the ring: default the grade, percentile the percentile, github the GitHub mark.',
      (raw) => (raw === 'percentile' || raw === 'github' ? raw : 'level'),
      'level',
    ),
    include_all_commits: lenientFlag('Count commits of every year.', false),
    commits_year: commitsYearParam,
    exclude_repo: lenientList('Repositories whose stars are left out of the total (any case).'),
    text_bold: lenientFlag('Rows in bold (default); false for regular weight.', true),
    count_private: lenientFlag('Add the private commits GitHub counts for the account.', false),
    line_height: lenientNumber('Distance between rows, px.', 16, 60),
    cache_seconds: lenientNumber('Seconds shared caches keep the card (1,800 to 172,800).', 1_800, 172_800),
    number_format: lenient<'short' | 'long' | null>(
      'short (1.2k) or long (1,234).',
      (raw) => (raw === 'short' || raw === 'long' ? raw : undefined),
      null,
    ),
    ...commonParams,
  },
  async render(values, { services }) {
    const commitsYear = commitsYearOf(values.commits_year, services.now());
    const allCommits = values.include_all_commits;
    // Their order: every year's commits win over one year's.
    const year = allCommits ? null : commitsYear;
    const [figures, yearCommits] = await Promise.all([
      statsFigures(services, values.username, allCommits, values.count_private),
      year === null ? undefined : commitsOfYear(services, values.username, year, values.count_private),
    ]);
    const { stats } = figures;
    const commits = yearCommits ?? figures.commits;
    const stars = starsWithout(stats, values.exclude_repo);
    const shown = (row: StatsRow, value: number) => (values.show.includes(row) ? value : undefined);
    const labels = labelsOf(values.locale);
    return renderOnce(
      stats,
      `grs-stats|${commits}|${drawingKey(values)}`,
      () =>
        withGradient(
          renderStats({
            ...statsCardFigures({ ...stats, stars }, commits, allCommits, !values.hide_rank),
            reviews: shown('reviews', stats.reviews),
            mergedPullRequests: shown('prs_merged', stats.mergedPullRequests),
            mergedPercentage: shown('prs_merged_percentage', mergedShare(stats)),
            discussionsStarted: shown('discussions_started', stats.discussionsStarted),
            discussionsAnswered: shown('discussions_answered', stats.discussionsAnswered),
            hide: new Set(values.hide.filter((row): row is StatsRow => statsRows.has(row as StatsRow))),
            rankLabel: values.rank_icon,
            showIcons: values.show_icons,
            theme: cardTheme(values),
            title: cardTitle(values),
            titleFor: labels.statsTitle,
            labels: statsLabels(labels, allCommits, year),
            minWidth: values.card_width ?? undefined,
            rowHeight: values.line_height ?? undefined,
            radius: values.border_radius ?? undefined,
            hideBorder: values.hide_border,
            formatValue: values.number_format ? numberFormats[values.number_format] : undefined,
            boldText: values.text_bold,
          }),
          values.bg_color,
        ),
      cachePolicyFor(values.cache_seconds, githubCardCache),
    );
  },
});

/** Languages their top-languages card draws at most. */
const maxLanguages = 20;

export const githubReadmeStatsTopLanguages = defineEndpoint({
  path: '/top-langs',
  summary: 'github-readme-stats drop-in: the top languages card.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    langs_count: lenientNumber('Languages shown (1-20).', 1, maxLanguages),
    hide: lenientList('Languages to leave out (case-insensitive).'),
    exclude_repo: lenientList('Repositories left out of the sums (any case).'),
    layout: lenientText('normal, compact, donut, donut-vertical or pie.', 20),
    size_weight: lenientWeight("Weight of a language's bytes in its rank (default 1)."),
    count_weight: lenientWeight('Weight of the number of repositories using it (default 0).'),
    hide_progress: lenientFlag('No bar and no percentages: the names only.', false),
    stats_format: lenient<'percentages' | 'bytes'>(
      'percentages (default) or bytes: each language written as its size (12.5 KB).',
      (raw) => (raw === 'bytes' || raw === 'percentages' ? raw : undefined),
      'percentages',
    ),
    ...commonParams,
  },
  async render(values, { services }) {
    const sizes = await forCard(gitHubDataFor(services).languages(values.username, values.exclude_repo));
    const hidden = new Set(values.hide.map((name) => name.toLowerCase()));
    return renderOnce(sizes, `grs-langs|${drawingKey(values)}`, () => {
      const shown = sizes.filter((language) => !hidden.has(language.name.toLowerCase()));
      const weighted = weighLanguages(shown, values.size_weight ?? 1, values.count_weight ?? 0);
      return withGradient(
        renderLanguages({
          shares: languageShares(weighted, values.langs_count ?? 5),
          hideProgress: values.hide_progress,
          theme: cardTheme(values),
          title: cardTitle(values, labelsOf(values.locale).languagesTitle),
          hideBorder: values.hide_border,
          minWidth: values.card_width ?? undefined,
          radius: values.border_radius ?? undefined,
          // Their default is normal: one row per language.
          layout: languageLayouts[values.layout ?? 'normal'] ?? 'rows',
          shareFormat: values.stats_format === 'bytes' ? 'bytes' : 'percent',
        }),
        values.bg_color,
      );
    });
  },
});

/** A weight of `size_weight`/`count_weight`: a decimal from 0 to 10 (`0.5`); else ignored. */
function lenientWeight(description: string) {
  return lenient<number | null>(
    description,
    (raw) => (/^\d{1,3}(\.\d{1,6})?$/.test(raw) ? Math.min(10, Number(raw)) : undefined),
    null,
  );
}

/**
 * Their ranking: each language scores bytes^size_weight x repositories^count_weight, and the
 * shares drawn are of the scores (the defaults 1 and 0 give the byte shares).
 */
function weighLanguages(
  sizes: readonly LanguageSize[],
  sizeWeight: number,
  countWeight: number,
): readonly LanguageSize[] {
  if (sizeWeight === 1 && countWeight === 0) return sizes;
  return sizes.map((language) => ({
    ...language,
    bytes: language.bytes ** sizeWeight * language.repositories ** countWeight,
  }));
}

/** Their layouts onto ours: normal is one row per language, compact the bar with a legend. */
const languageLayouts: Readonly<Record<string, 'bar' | 'rows' | 'donut' | 'pie'>> = {
  normal: 'rows',
  compact: 'bar',
  donut: 'donut',
  'donut-vertical': 'donut',
  pie: 'pie',
};

const repositoryNamePattern = /^[A-Za-z0-9._-]{1,100}$/;

export const githubReadmeStatsPin = defineEndpoint({
  path: '/pin',
  summary: 'github-readme-stats drop-in: a repository pin.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    repo: customParam<string>(
      { kind: 'string', required: true, max: 100, description: 'Repository name.' },
      (raw) =>
        repositoryNamePattern.test(raw) && !/^\.+$/.test(raw)
          ? raw
          : { error: 'must be a GitHub repository name (letters, digits, ., _ and -)' },
    ),
    show_owner: lenientFlag('Show owner/name instead of the name.', false),
    description_lines_count: lenientNumber('Lines of description (1-3).', 1, 3),
    ...commonParams,
  },
  async render(values, { services }) {
    const repository = await forCard(gitHubDataFor(services).repository(values.username, values.repo));
    const name = values.show_owner ? repository.nameWithOwner : repository.nameWithOwner.split('/')[1]!;
    return withGradient(
      renderRepo({
        repository,
        showDescription: true,
        theme: cardTheme(values),
        title: values.hide_title ? name : (values.custom_title ?? name),
        descriptionLines: values.description_lines_count ?? undefined,
        labels: { archived: labelsOf(values.locale).archived, template: labelsOf(values.locale).template },
        hideBorder: values.hide_border,
        radius: values.border_radius ?? undefined,
        minWidth: values.card_width ?? undefined,
      }),
      values.bg_color,
    );
  },
});

/** Cards we cannot draw change when we learn to: image proxies may keep them 10 minutes. */
const noticeCache: CachePolicy = { kind: 'shared', maxAgeSeconds: 600, staleWhileRevalidateSeconds: 3_600 };

/** A card saying what this service does not draw and what to use instead, in the theme asked for. */
function notice(path: `/${string}`, what: string, instead: string) {
  return defineEndpoint({
    path,
    summary: `github-readme-stats drop-in: ${what} (not served; a card says so).`,
    cache: noticeCache,
    pure: true,
    params: { theme: commonParams.theme },
    render: ({ theme }) =>
      renderShape({
        type: 'card',
        text: `readme-cards does not draw ${what}. ${instead}`,
        theme: getTheme(foreignTheme(theme, defaultTheme)),
      }),
  });
}

export const githubReadmeStatsGist = notice(
  '/gist',
  'gist cards',
  'Link the gist, or pin its repository with /repo.',
);
export const githubReadmeStatsWakatime = notice(
  '/wakatime',
  'WakaTime cards (they need a WakaTime account link)',
  'Use /languages for the languages of your public code.',
);
