/**
 * @module GET /repo: a repository pin with stars, forks, language, licence and description.
 */
import { renderRepo } from '../cards/repo.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { flag, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, repoParam } from './github-params.js';

export const repo = defineEndpoint({
  path: '/repo',
  summary: 'A repository: stars, forks, language, licence, description, archived and template markers.',
  cache: githubCardCache,
  pure: false,
  params: {
    repo: repoParam,
    showDescription: flag({ description: 'Show the description.', default: true }),
    theme: themeParam,
  },
  async render({ repo, showDescription, theme }, { services }) {
    const repository = await forCard(gitHubDataFor(services).repository(repo.owner, repo.name));
    return renderRepo({ repository, showDescription, theme: getTheme(theme) });
  },
});
