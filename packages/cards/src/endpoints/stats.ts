/**
 * @module GET /stats: stars, commits, pull requests, issues, contributed-to and the grade.
 */
import { renderOnce } from '../cards/render-memo.js';
import { renderStats, type StatsInput } from '../cards/stats.js';
import type { UserStats } from '../github/fetchers/user-stats.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import type { CardServices } from '../http/services.js';
import { calculateRank } from '../insights/rank.js';
import { flag, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, usernameParam } from './github-params.js';

export const stats = defineEndpoint({
  path: '/stats',
  summary: 'Stars earned, commits, pull requests, issues, contributed-to and a grade (S to C).',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    showIcons: flag({ description: 'Show an icon before each line.', default: false }),
    rank: flag({ description: 'Show the grade in a progress ring.', default: true }),
    allCommits: flag({
      description: 'Count commits of every year instead of the last 12 months.',
      default: false,
    }),
    theme: themeParam,
  },
  async render({ username, showIcons, rank, allCommits, theme }, { services }) {
    const { stats, commits } = await statsFigures(services, username, allCommits);
    return renderOnce(stats, `stats|${commits}|${showIcons}|${rank}|${allCommits}|${theme}`, () =>
      renderStats({
        ...statsCardFigures(stats, commits, allCommits, rank),
        showIcons,
        theme: getTheme(theme),
      }),
    );
  },
});

/**
 * The counters of an account and its commits: of the last year, or of every year with
 * `allCommits` (both fetches start together, so a cold card costs one round trip more at most).
 * Private commits GitHub counts for us are included unless `countPrivate` is false.
 */
export async function statsFigures(
  services: CardServices,
  username: string,
  allCommits: boolean,
  countPrivate = true,
): Promise<{ stats: UserStats; commits: number }> {
  const data = gitHubDataFor(services);
  const [stats, contributions] = await forCard(
    Promise.all([data.userStats(username), allCommits ? data.contributions(username) : undefined]),
  );
  const commits = contributions
    ? contributions.years.reduce(
        (sum, year) => sum + year.commits - (countPrivate ? 0 : (year.privateCommits ?? 0)),
        0,
      )
    : stats.commitsLastYear - (countPrivate ? 0 : stats.privateCommitsLastYear);
  return { stats, commits };
}

/** What the stats card shows of those figures, the grade included when `rank`. */
export function statsCardFigures(
  stats: UserStats,
  commits: number,
  allCommits: boolean,
  rank: boolean,
): Omit<StatsInput, 'showIcons' | 'theme'> {
  return {
    displayName: stats.name || stats.login,
    stars: stats.stars,
    commits,
    allCommits,
    pullRequests: stats.pullRequests,
    issues: stats.issues,
    contributedTo: stats.contributedTo,
    rank: rank
      ? calculateRank({
          allCommits,
          commits,
          pullRequests: stats.pullRequests,
          issues: stats.issues,
          reviews: stats.reviews,
          stars: stats.stars,
          followers: stats.followers,
        })
      : null,
  };
}
