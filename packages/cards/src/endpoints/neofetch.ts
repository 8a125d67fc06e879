/**
 * @module GET /neofetch: a terminal-style card with an ASCII logo and account facts.
 */
import { renderNeofetch } from '../cards/neofetch.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { accountAge } from '../insights/durations.js';
import { languageShares } from '../insights/language-shares.js';
import { text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, usernameParam } from './github-params.js';

export const neofetch = defineEndpoint({
  path: '/neofetch',
  summary: 'A terminal-style card: repositories, stars, followers, uptime (account age), languages.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    theme: themeParam,
    title: text({ description: 'First line; default `username@github`.', max: 60, default: '' }),
  },
  async render({ username, theme, title }, { services }) {
    const data = gitHubDataFor(services);
    const [stats, sizes] = await forCard(Promise.all([data.userStats(username), data.languages(username)]));
    const top = languageShares(sizes, 3).top;
    const palette = getTheme(theme);
    return renderNeofetch({
      title: title || `${username}@github`,
      lines: [
        ['Name', stats.name ?? stats.login],
        ['Repos', String(stats.publicRepositories)],
        ['Stars', String(stats.stars)],
        ['Followers', String(stats.followers)],
        ['Uptime', accountAge(Date.parse(stats.createdAt), services.now().getTime())],
        ['Languages', top.map((language) => language.name).join(', ') || 'none'],
      ],
      palette: [...palette.graph, palette.accent, palette.ring],
      theme: palette,
    });
  },
});
