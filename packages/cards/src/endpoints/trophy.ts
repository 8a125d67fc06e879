/**
 * @module GET /trophy: tiered trophies for stars, commits, followers, pull requests, issues and
 * repositories.
 */
import { renderTrophy } from '../cards/trophy.js';
import { withDialect } from '../compat/dialect.js';
import { profileTrophyCard } from '../compat/profile-trophy.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { trophiesFor } from '../insights/trophies.js';
import { flag, number, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, usernameParam } from './github-params.js';

const ourTrophy = defineEndpoint({
  path: '/trophy',
  summary:
    'Tiered trophies (SSS to C) for stars, commits, followers, pull requests, issues and repositories.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    column: number({ description: 'Trophies per row.', min: 1, max: 4, default: 3 }),
    noFrame: flag({ description: 'Draw the trophies without panels.', default: false }),
    theme: themeParam,
  },
  async render({ username, column, noFrame, theme }, { services }) {
    const data = gitHubDataFor(services);
    // Commits count every year here: a trophy rewards a career, not the last twelve months.
    const [stats, contributions] = await forCard(
      Promise.all([data.userStats(username), data.contributions(username)]),
    );
    const commits = contributions.years.reduce((sum, year) => sum + year.commits, 0);
    const trophies = trophiesFor({
      stars: stats.stars,
      commits,
      followers: stats.followers,
      pullRequests: stats.pullRequests,
      issues: stats.issues,
      repositories: stats.publicRepositories,
    });
    return renderTrophy({ login: stats.login, trophies, columns: column, noFrame, theme: getTheme(theme) });
  },
});

/**
 * Also github-profile-trophy's URLs: its own parameters, and `column`/`theme` beyond ours
 * (`column=7`, `theme=flat`) when the query names nothing only we use.
 */
export const trophy = withDialect(ourTrophy, {
  endpoint: profileTrophyCard,
  widerNames: ['column', 'theme'],
});
