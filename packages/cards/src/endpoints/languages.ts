/**
 * @module GET /languages: byte shares of the most used languages.
 */
import { renderLanguages } from '../cards/languages.js';
import { renderOnce } from '../cards/render-memo.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { languageShares } from '../insights/language-shares.js';
import { number, themeParam } from '../params/index.js';
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
  },
  async render({ username, langsCount, theme }, { services }) {
    const sizes = await forCard(gitHubDataFor(services).languages(username));
    return renderOnce(sizes, `languages|${langsCount}|${theme}`, () =>
      renderLanguages({ shares: languageShares(sizes, langsCount), theme: getTheme(theme) }),
    );
  },
});
