/**
 * @module GET /streak: current and longest streak and total contributions over every year.
 */
import { renderOnce } from '../cards/render-memo.js';
import { renderStreak } from '../cards/streak.js';
import { withDialect } from '../compat/dialect.js';
import { streakStatsCard } from '../compat/streak-stats.js';
import { contributionDays } from '../github/fetchers/contributions.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { todayIn } from '../insights/calendar-date.js';
import { contributionGrid } from '../insights/contribution-grid.js';
import { computeStreaks } from '../insights/streak.js';
import { flag, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { githubCardCache, timezoneParam, usernameParam } from './github-params.js';

/** Weeks in the optional calendar strip. */
const calendarWeeks = 20;

const ourStreak = defineEndpoint({
  path: '/streak',
  summary: 'Current streak, longest streak and total contributions across every year.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    showCalendar: flag({ description: 'Add the last 20 weeks as a small calendar.', default: false }),
    hideBorder: flag({ description: 'Draw no border.', default: false }),
    theme: themeParam,
    timezone: timezoneParam,
  },
  async render({ username, showCalendar, hideBorder, theme, timezone }, { services }) {
    const data = gitHubDataFor(services);
    const contributions = await forCard(data.contributions(username));
    const today = todayIn(services.now().getTime(), timezone);
    return renderOnce(
      contributions,
      `streak|${username}|${today}|${showCalendar}|${hideBorder}|${theme}`,
      () => {
        const days = contributionDays(contributions);
        return renderStreak({
          login: username,
          summary: computeStreaks(days, today),
          today,
          calendar: showCalendar ? contributionGrid(days, today, calendarWeeks) : null,
          hideBorder,
          theme: getTheme(theme),
        });
      },
    );
  },
});

/** Also github-readme-streak-stats' URLs (`/streak?user=...`), whose themes differ from ours. */
export const streak = withDialect(ourStreak, { endpoint: streakStatsCard, widerNames: ['theme'] });
