/**
 * @module GET /languages: byte shares of the most used languages.
 */
import { renderLanguages } from '../cards/languages.js';
import { renderOnce } from '../cards/render-memo.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { languageShares } from '../insights/language-shares.js';
import { number, oneOf, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, usernameParam } from './github-params.js';

export const languages = defineEndpoint({
  path: '/languages',
  summary: 'Byte shares of the most used languages over public non-fork repositories.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    langsCount: number({ description: 'Languages shown.', min: 1, max: 8, default: 5 }),
    theme: themeParam,
    weight: oneOf(['bytes', 'commits'] as const, {
      description:
        "bytes: shares of the code in the user's own non-fork repositories; commits: each repository the user committed to in the last year (any owner) weighted by those commits.",
      default: 'bytes',
    }),
  },
  async render({ username, langsCount, theme, weight }, { services }) {
    const github = gitHubDataFor(services);
    const sizes = await forCard(
      weight === 'commits' ? github.commitLanguages(username) : github.languages(username),
    );
    return renderOnce(sizes, `languages|${langsCount}|${theme}|${weight}`, () =>
      renderLanguages({ shares: languageShares(sizes, langsCount), theme: getTheme(theme) }),
    );
  },
});
