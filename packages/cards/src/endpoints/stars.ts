/**
 * @module GET /stars: the star history curve of a repository and its metrics.
 */
import { renderStars } from '../cards/stars.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { starMetrics } from '../insights/star-metrics.js';
import { themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, repoParam } from './github-params.js';

export const stars = defineEndpoint({
  path: '/stars',
  summary: 'Star progression of a repository with total, last-30-days and growth metrics.',
  cache: githubCardCache,
  pure: false,
  params: { repo: repoParam, theme: themeParam },
  async render({ repo, theme }, { services }) {
    const history = await forCard(gitHubDataFor(services).starHistory(repo.owner, repo.name));
    return renderStars({
      repository: `${repo.owner}/${repo.name}`,
      points: history.points,
      metrics: starMetrics(history, services.now().getTime()),
      sampled: history.sampled,
      theme: getTheme(theme),
    });
  },
});
