/**
 * @module GET /views: public bio, followers, repositories and the developer score.
 */
import { renderViews } from '../cards/views.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { developerScore } from '../insights/developer-score.js';
import { themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, usernameParam } from './github-params.js';

export const views = defineEndpoint({
  path: '/views',
  summary: 'Public bio, followers, repositories and a developer score (0-100, formula in the README).',
  cache: githubCardCache,
  pure: false,
  params: { username: usernameParam, theme: themeParam },
  async render({ username, theme }, { services }) {
    const stats = await forCard(gitHubDataFor(services).userStats(username));
    return renderViews({
      login: stats.login,
      name: stats.name,
      bio: stats.bio,
      followers: stats.followers,
      repositories: stats.publicRepositories,
      score: developerScore(stats),
      theme: getTheme(theme),
    });
  },
});
