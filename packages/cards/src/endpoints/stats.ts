/**
 * @module GET /stats: stars, commits, pull requests, issues, contributed-to and the grade.
 */
import { renderOnce } from '../cards/render-memo.js';
import { renderStats } from '../cards/stats.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
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
    const data = gitHubDataFor(services);
    // Both fetches start together: with allCommits a cold card still costs one round trip more at most.
    const [stats, contributions] = await forCard(
      Promise.all([data.userStats(username), allCommits ? data.contributions(username) : undefined]),
    );
    const commits = contributions
      ? contributions.years.reduce((sum, year) => sum + year.commits, 0)
      : stats.commitsLastYear;
    return renderOnce(stats, `stats|${commits}|${showIcons}|${rank}|${allCommits}|${theme}`, () =>
      renderStats({
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
        showIcons,
        theme: getTheme(theme),
      }),
    );
  },
});
