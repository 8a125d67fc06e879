/**
 * @module GET /activity: the 52-week contribution graph.
 */
import { renderActivity } from '../cards/activity.js';
import { renderOnce } from '../cards/render-memo.js';
import { contributionDays } from '../github/fetchers/contributions.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { addDays, todayIn } from '../insights/calendar-date.js';
import { contributionGrid } from '../insights/contribution-grid.js';
import { flag, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, timezoneParam, usernameParam } from './github-params.js';

/** 52 full weeks plus the current one, like GitHub's profile graph. */
const weeks = 53;

export const activity = defineEndpoint({
  path: '/activity',
  summary: 'The 52-week contribution graph with month and day labels and a legend.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    hideLegend: flag({ description: 'Hide the Less/More legend.', default: false }),
    hideLabels: flag({ description: 'Hide month and weekday labels.', default: false }),
    theme: themeParam,
    timezone: timezoneParam,
  },
  async render({ username, hideLegend, hideLabels, theme, timezone }, { services }) {
    const contributions = await forCard(gitHubDataFor(services).contributions(username));
    const today = todayIn(services.now().getTime(), timezone);
    return renderOnce(
      contributions,
      `activity|${username}|${today}|${hideLegend}|${hideLabels}|${theme}`,
      () => {
        const days = contributionDays(contributions);
        const grid = contributionGrid(days, today, weeks);
        const yearAgo = addDays(today, -365);
        const total = days
          .filter((day) => day.date > yearAgo && day.date <= today)
          .reduce((sum, day) => sum + day.count, 0);
        return renderActivity({
          login: username,
          grid,
          total,
          hideLegend,
          hideLabels,
          theme: getTheme(theme),
        });
      },
    );
  },
});
