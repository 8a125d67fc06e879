/**
 * @module GET /snake: a snake eating the contribution calendar (pure CSS animation).
 */

import { colorOr } from '../cards/github-marks.js';
import { renderOnce } from '../cards/render-memo.js';
import { renderSnake } from '../cards/snake.js';
import { contributionDays } from '../github/fetchers/contributions.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { todayIn } from '../insights/calendar-date.js';
import { contributionGrid } from '../insights/contribution-grid.js';
import { solveSnake } from '../insights/snake-solver.js';
import { flag, number, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { colorParam, githubCardCache, usernameParam } from './github-params.js';

const weeks = 53;

export const snake = defineEndpoint({
  path: '/snake',
  summary: 'A snake that eats the contribution calendar, lightest cells first (CSS animation, no script).',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    theme: themeParam,
    duration: number({ description: 'Seconds per loop.', min: 3, max: 30, default: 20, fractional: true }),
    color: colorParam,
    title: text({ description: 'Title above the calendar; empty: none.', max: 60, default: '' }),
    hide_border: flag({ description: 'Draw no border.', default: false }),
  },
  async render({ username, theme, duration, color, title, hide_border }, { services }) {
    const contributions = await forCard(gitHubDataFor(services).contributions(username));
    const today = todayIn(services.now().getTime());
    const key = `snake|${username}|${today}|${theme}|${duration}|${color}|${title}|${hide_border}`;
    // Solving the route is the costly part: done once per data refresh and parameter set.
    return renderOnce(contributions, key, () => {
      const days = contributionDays(contributions);
      const grid = contributionGrid(days, today, weeks);
      const route = solveSnake(grid.map((week) => week.map((day) => day?.level ?? 0)));
      const palette = getTheme(theme);
      return renderSnake({
        login: username,
        grid,
        route,
        duration,
        color: colorOr(color, palette.accent),
        title,
        hideBorder: hide_border,
        theme: palette,
      });
    });
  },
});
